// The sessions (agent conversations) of one workspace.
import { api } from '../api.js';
import { h, fill } from '../dom.js';
import { ago, clock, day, exact, plural } from '../format.js';
import { newestFirst } from '../listing.js';
import { cards, empty, errorState, loading } from '../ui.js';
import { routes } from '../routes.js';
import { subscribe } from '../events.js';
import { newestWins } from '../reload.js';

export async function sessionsView(main, ctx, workspace) {
  ctx.crumbs([{ label: 'Workspaces', href: routes.workspaces() }, { label: workspace, mono: true }]);
  fill(main, loading('Loading sessions…'));
  const load = async () => {
    try {
      return await api.sessions(workspace);
    } catch (e) {
      fill(main, errorState(e, () => sessionsView(main, ctx, workspace)));
      return null;
    }
  };
  const data = await load();
  if (!data) return null;
  const draw = listing => {
    const sessions = newestFirst(listing.sessions);
    fill(main, h('section', { class: 'page' },
      h('header', { class: 'page-head' },
        h('h1', { class: 'mono path-title' }, workspace),
        h('p', { class: 'muted' }, `${plural(sessions.length, 'session')}. A session is one agent conversation; each reply is a turn.`)),
      sessions.length === 0 ? empty('No sessions in this workspace.') :
        cards(sessions, s => ({
          href: routes.session(s.session),
          dataset: { session: s.session },
          iconName: 'chat',
          title: s.session,
          meta: [plural(s.turns, 'turn'), ' · began ',
            h('time', { datetime: s.created_at, title: exact(s.created_at) }, `${day(s.created_at)} ${clock(s.created_at)}`),
            s.last_turn_at ? [' · last turn ', h('time', { datetime: s.last_turn_at, title: exact(s.last_turn_at) }, ago(s.last_turn_at))] : null],
          end: h('span', { class: 'chevron', aria: { hidden: 'true' } }, '›'),
        }))));
  };
  draw(data);
  let shown = true;
  const reload = newestWins(load, fresh => {
    if (shown) draw(fresh);
  });
  subscribe({ workspace }, {
    onEvent: name => {
      if (name === 'turn_begun' || name === 'turn_finished' || name === 'rewind_done') reload();
    },
    onResync: reload,
  });
  return { destroy: () => { shown = false; } };
}
