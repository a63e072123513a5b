// A view's reload after a live event. Events come in bursts (another process's commit is seen as a resync and
// as the turn it finished; a rewind ends with its turn and its rewind), and each starts a request: answers can
// come back in any order, and an older answer drawn last would show a page that is already out of date. So only
// the answer to the newest request is drawn; the page stays as it is while the request runs (no "Loading…" in
// its place: the reader keeps the place and the diffs they had open).

/** Returns reload(): load() and then draw(answer), unless a newer reload started meanwhile or load() gave null. */
export function newestWins(load, draw) {
  let asked = 0;
  return async () => {
    const mine = ++asked;
    const answer = await load();
    if (answer != null && mine === asked) draw(answer);
  };
}
