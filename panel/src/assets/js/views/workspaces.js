// All workspaces with recorded turns.
import { api } from '../api.js';
import { h, fill } from '../dom.js';
import { ago, clock, day, exact, plural } from '../format.js';
import { newestFirst } from '../listing.js';
import { badge, cards, empty, errorState, loading } from '../ui.js';
import { routes } from '../routes.js';
import { subscribe } from '../events.js';
import { newestWins } from '../reload.js';

export async function workspacesView(main, ctx) {
  ctx.crumbs([{ label: 'Workspaces' }]);
  fill(main, loading('Loading workspaces…'));
  const load = async () => {
    try {
      return await api.workspaces();
    } catch (e) {
      fill(main, errorState(e, () => workspacesView(main, ctx)));
      return null;
    }
  };
  const data = await load();
  if (!data) return null;
  draw(main, data);
  // every event (this page watches all workspaces): a new workspace or turn shows without a reload
  let shown = true;
  const reload = newestWins(load, fresh => {
    if (shown) draw(main, fresh);
  });
  subscribe({}, {
    onEvent: name => {
      if (name === 'turn_begun' || name === 'turn_finished' || name === 'rewind_done') reload();
    },
    onResync: reload,
  });
  return { destroy: () => { shown = false; } };
}

function draw(main, data) {
  const list = newestFirst(data.workspaces);
  fill(main, h('section', { class: 'page' },
    h('header', { class: 'page-head' },
      h('h1', null, 'Workspaces'),
      h('p', { class: 'muted' }, `${plural(list.length, 'workspace')} with recorded turns. Pick one to review its sessions.`)),
    list.length === 0 ? empty('No turns recorded yet. Runtimes record turns through the service (see the README).') :
      cards(list, w => ({
        href: routes.workspace(w.workspace),
        dataset: { workspace: w.workspace },
        iconName: 'folder',
        title: w.workspace,
        meta: [plural(w.sessions, 'session'), ' · ', plural(w.turns, 'turn'),
          w.last_turn_at ? [' · last turn ', h('time', { datetime: w.last_turn_at, title: exact(w.last_turn_at) }, `${day(w.last_turn_at)} ${clock(w.last_turn_at)} (${ago(w.last_turn_at)})`)] : null],
        end: w.tracked ? badge('tracked', 'scan', 'Tracked: the finish scan finds what shell commands change') : null,
      }))));
}
