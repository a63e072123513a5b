import assert from 'node:assert/strict';
import { test } from 'node:test';
import { built } from './built.mjs';

const { routes, parseRoute, withQuery, loginFromHash } = await built('assets/js/routes.js');

// names a workspace, id or path may hold (ids allow / + = : @), and markup that must stay text
const HOSTILE = ['/tmp/my project', 'conv/1+2=3@x:y', 'a?b#c&d=e', '100% done', '<img src=x onerror=alert(1)>.txt',
  'src/ü/日本.py', '..', '%2F', 'x%', 'back\\slash'];

test('every route parses back to the parts it was built from', () => {
  for (const name of HOSTILE) {
    assert.deepEqual(parseRoute(routes.workspace(name)).segments, ['w', name]);
    assert.deepEqual(parseRoute(routes.session(name)).segments, ['s', name]);
    assert.deepEqual(parseRoute(routes.range(name, `${name}2`)).segments, ['r', name, `${name}2`]);
    assert.deepEqual(parseRoute(routes.history('/ws', name)).segments, ['h', '/ws', name]);
    const turn = parseRoute(routes.turn('t-1', name));
    assert.deepEqual(turn.segments, ['t', 't-1']);
    assert.equal(turn.query.get('file'), name);
  }
});

test('a route with no file has no query; the root is the workspaces page', () => {
  assert.equal(routes.turn('t-1'), '#/t/t-1');
  assert.deepEqual(parseRoute('#/').segments, []);
  assert.deepEqual(parseRoute('').segments, []);
  assert.equal(routes.workspaces(), '#/');
});

test('a hand-typed % that is no escape stays as it is', () => {
  assert.deepEqual(parseRoute('#/s/50%').segments, ['s', '50%']);
});

test('only the first ? starts the query', () => {
  const { segments, query } = parseRoute(`#/t/t-1?file=${encodeURIComponent('a?b')}&x=1?2`);
  assert.deepEqual(segments, ['t', 't-1']);
  assert.equal(query.get('file'), 'a?b');
  assert.equal(query.get('x'), '1?2');
});

test('withQuery keeps the route and replaces its query', () => {
  const hash = routes.range('/ws/a b', 'conv/1', 'old');
  const next = withQuery(hash, { file: 'src/<b>.py' });
  assert.deepEqual(parseRoute(next).segments, ['r', '/ws/a b', 'conv/1']);
  assert.equal(parseRoute(next).query.get('file'), 'src/<b>.py');
  assert.equal(withQuery('#/t/x?file=a', {}), '#/t/x');
});

test('the login fragment gives the code and the next route; anything but a route goes to #/', () => {
  assert.equal(loginFromHash('#/t/x'), null);
  assert.deepEqual(loginFromHash('#login=abc_-123'), { code: 'abc_-123', route: '#/' });
  assert.deepEqual(loginFromHash('#login=abc&next=https://evil.example/'), { code: 'abc', route: '#/' });
  assert.deepEqual(loginFromHash('#login=abc&next=javascript:alert(1)'), { code: 'abc', route: '#/' });
  assert.deepEqual(loginFromHash('#login='), { code: '', route: '#/' });
});

test('next carries a workspace route whose root holds spaces, + and % (encoded twice, as docs/review-panel.md says)', () => {
  for (const root of ['/home/u/my project', '/srv/a+b', '/tmp/100%', '/tmp/a&next=/s/x']) {
    const next = encodeURIComponent(`/w/${encodeURIComponent(root)}`);
    const { route } = loginFromHash(`#login=c0de&next=${next}`);
    assert.deepEqual(parseRoute(route).segments, ['w', root]);
  }
});
