// All workspaces with recorded turns.
import { api } from '../api.js';
import { h, fill } from '../dom.js';
import { ago, clock, day, exact, plural } from '../format.js';
import { badge, cards, empty, errorState, loading, routes } from '../ui.js';
import { subscribe } from '../events.js';

export async function workspacesView(main, ctx) {
  ctx.crumbs([{ label: 'Workspaces' }]);
  subscribe({}, {});
  fill(main, loading('Loading workspaces…'));
  let data;
  try {
    data = await api.workspaces();
  } catch (e) {
    fill(main, errorState(e, () => workspacesView(main, ctx)));
    return null;
  }
  const list = data.workspaces.slice().sort((a, b) => (b.last_turn_at ?? '').localeCompare(a.last_turn_at ?? ''));
  fill(main, h('section', { class: 'page' },
    h('header', { class: 'page-head' },
      h('h1', null, 'Workspaces'),
      h('p', { class: 'muted' }, `${plural(list.length, 'workspace')} with recorded turns. Pick one to review its sessions.`)),
    list.length === 0 ? empty('No turns recorded yet. Runtimes record turns through the service (see the README).') :
      cards(list, w => ({
        href: routes.workspace(w.workspace),
        iconName: 'folder',
        title: w.workspace,
        meta: [plural(w.sessions, 'session'), ' · ', plural(w.turns, 'turn'),
          w.last_turn_at ? [' · last turn ', h('time', { datetime: w.last_turn_at, title: exact(w.last_turn_at) }, `${day(w.last_turn_at)} ${clock(w.last_turn_at)} (${ago(w.last_turn_at)})`)] : null],
        end: w.tracked ? badge('tracked', 'scan', 'Tracked: the finish scan finds what shell commands change') : null,
      }))));
  return null;
}
