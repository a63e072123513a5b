// A turn's (or a range's) files: a filterable, virtualised list, flat or as a folder tree whose folders
// collapse. Only the rows in view are in the DOM, so a 1,000-file turn draws as fast as a 10-file one.
import { h, fill } from './dom.js';
import { count, plural, splitPath } from './format.js';
import { fileFlags, fileTree, renameLabel } from './listing.js';
import { changeMark, flagOf } from './ui.js';

const ROW = 34;
const OVERSCAN = 8;
const VIEW_KEY = 'turndiff.fileView';

export class FileList {
  constructor({ onSelect, extra, viewed }) {
    this.onSelect = onSelect;
    this.extra = extra;          // record -> extra node for the row (e.g. the turns of a range record)
    this.viewed = viewed;        // the reviewer's viewed marks (viewed.js), or none
    this.items = [];
    this.shown = [];             // indices into items that pass the filter, in the order shown (not in a collapsed folder)
    this.lines = [];             // the rows drawn: {kind: 'file', index, depth} or, in the tree, {kind: 'dir', ...}
    this.tree = localStorage.getItem(VIEW_KEY) === 'tree';
    this.collapsed = new Set();  // the tree's folders closed, by path
    this.selected = -1;          // index into items
    this.filter = '';
    this.matching = 0;           // how many items pass the filter
    this.hideUnchanged = false;
    this.input = h('input', { type: 'search', class: 'filter', placeholder: 'Filter files  /', 'aria-label': 'Filter files', autocomplete: 'off', spellcheck: 'false',
      oninput: () => { this.filter = this.input.value; this.refilter(); } });
    this.unchangedToggle = h('label', { class: 'toggle', title: 'Hide files the turn recorded but left unchanged' },
      h('input', { type: 'checkbox', onchange: e => { this.hideUnchanged = e.target.checked; this.refilter(); } }), 'hide unchanged');
    this.treeToggle = h('button', { type: 'button', class: 'button button-small button-quiet tree-toggle', title: 'Show the files as a folder tree, or as a flat list',
      aria: { pressed: String(this.tree) }, onclick: () => this.setTree(!this.tree) }, 'Tree');
    this.summary = h('div', { class: 'filelist-summary muted small', role: 'status' });
    this.rows = h('div', { class: 'filelist-rows' });
    this.spacer = h('div', { class: 'filelist-spacer' }, this.rows);
    this.scroller = h('div', { class: 'filelist-scroller', role: 'listbox', tabindex: '0', 'aria-label': 'Files',
      onscroll: () => this.schedule() }, this.spacer);
    this.el = h('div', { class: 'filelist' }, h('div', { class: 'filelist-tools' }, this.input, this.unchangedToggle, this.treeToggle), this.summary, this.scroller);
    new ResizeObserver(() => this.schedule()).observe(this.scroller);
  }

  setItems(items) {
    const path = this.items[this.selected]?.path;
    this.items = items;
    this.selected = path === undefined ? -1 : items.findIndex(r => r.path === path);
    this.refilter();
  }

  /** Flat list or folder tree; the choice is remembered, as the diff layout is. */
  setTree(tree) {
    this.tree = tree;
    localStorage.setItem(VIEW_KEY, tree ? 'tree' : 'list');
    this.treeToggle.setAttribute('aria-pressed', String(tree));
    this.refilter();
  }

  /** Opens or closes a folder of the tree. */
  toggleFolder(path) {
    if (!this.collapsed.delete(path)) this.collapsed.add(path);
    this.refilter();
  }

  refilter() {
    const needle = this.filter.trim().toLowerCase();
    const matching = [];
    this.items.forEach((r, i) => {
      if (this.hideUnchanged && r.change === 'unchanged') return;
      if (needle && !r.path.toLowerCase().includes(needle)) return;
      matching.push(i);
    });
    if (this.tree) {
      const { rows, files } = fileTree(this.items, matching, this.collapsed);
      this.lines = rows;
      this.shown = files;
    } else {
      this.lines = matching.map(index => ({ kind: 'file', index, depth: 0 }));
      this.shown = matching;
    }
    this.spacer.style.height = `${this.lines.length * ROW}px`;
    const unchanged = this.items.filter(r => r.change === 'unchanged').length;
    this.unchangedToggle.hidden = unchanged === 0;
    this.matching = matching.length;
    this.drawSummary();
    this.draw();
  }

  /** The count of files shown, and of files viewed: "3 of 7 viewed". */
  drawSummary() {
    const matching = this.matching;
    const viewed = this.viewed ? this.viewed.count(this.items) : 0;
    fill(this.summary, matching === this.items.length ? plural(this.items.length, 'file')
      : `${count(matching)} of ${count(this.items.length)} files`,
    this.viewed && this.items.length ? h('span', { class: 'viewed-count' }, ` · ${count(viewed)} of ${count(this.items.length)} viewed`) : null);
  }

  /** Redraws what a viewed mark changes: the ticks and the count. */
  viewedChanged() {
    this.drawSummary();
    this.draw();
  }

  /** The row at which items[index] is drawn, or -1 (filtered out, or in a closed folder). */
  lineOf(index) {
    return this.lines.findIndex(line => line.kind === 'file' && line.index === index);
  }

  schedule() {
    if (this.pending) return;
    this.pending = requestAnimationFrame(() => {
      this.pending = 0;
      this.draw();
    });
  }

  draw() {
    const top = this.scroller.scrollTop;
    const height = this.scroller.clientHeight || 600;
    const first = Math.max(0, Math.floor(top / ROW) - OVERSCAN);
    const last = Math.min(this.lines.length, Math.ceil((top + height) / ROW) + OVERSCAN);
    this.rows.style.transform = `translateY(${first * ROW}px)`;
    const nodes = [];
    for (let n = first; n < last; n++) nodes.push(this.lines[n].kind === 'dir' ? this.folderRow(this.lines[n], n) : this.row(this.lines[n], n));
    this.rows.replaceChildren(...nodes);
  }

  /** A folder of the tree: a click opens or closes it. */
  folderRow(line, position) {
    const el = h('div', { class: ['dir-row', line.collapsed && 'collapsed'], role: 'option', id: `file-${position}`, dataset: { dir: line.path },
      aria: { expanded: String(!line.collapsed), selected: 'false', setsize: this.lines.length, posinset: position + 1 }, title: line.path,
      onclick: () => this.toggleFolder(line.path) },
      h('span', { class: 'dir-caret', aria: { hidden: 'true' } }, line.collapsed ? '▸' : '▾'),
      h('span', { class: 'file-name' }, `${line.name}/`),
      h('span', { class: 'muted small' }, count(line.files)));
    el.style.setProperty('--depth', String(line.depth));
    return el;
  }

  row({ index, depth, name: treeName }, position) {
    const r = this.items[index];
    const [dir, name] = splitPath(r.path);
    const selected = index === this.selected;
    const viewed = this.viewed?.has(r) ?? false;
    const el = h('div', { class: ['file-row', selected && 'selected', r.change === 'unchanged' && 'is-unchanged', this.tree && 'in-tree', viewed && 'is-viewed'], role: 'option', id: `file-${position}`, dataset: { path: r.path, viewed: String(viewed) },
      aria: { selected: String(selected), setsize: this.lines.length, posinset: position + 1 }, title: r.path,
      onclick: () => this.select(index, { scroll: false, user: true }) },
      changeMark(r),
      h('span', { class: 'file-path' }, this.tree ? null : h('span', { class: 'file-dir' }, r.renamed_from ? '' : dir), h('span', { class: 'file-name' }, this.tree ? treeName : renameLabel(r, r.renamed_from ? r.path : name))),
      h('span', { class: 'file-flags' }, fileFlags(r).map(flagOf), this.extra?.(r)),
      r.added || r.removed ? h('span', { class: 'file-lines' }, r.added ? h('span', { class: 'added' }, `+${count(r.added)}`) : null,
        r.removed ? h('span', { class: 'removed' }, `−${count(r.removed)}`) : null) : null,
      viewed ? h('span', { class: 'viewed-tick', title: 'Viewed', 'aria-label': 'viewed' }, '✓') : null);
    if (this.tree) el.style.setProperty('--depth', String(depth));
    return el;
  }

  /** Selects items[index]; scrolls it into view unless told not to. */
  select(index, { scroll = true, user = false } = {}) {
    if (index < 0 || index >= this.items.length) return;
    this.selected = index;
    if (this.tree && this.lineOf(index) < 0) this.openFoldersOf(this.items[index].path);
    const position = this.lineOf(index);
    if (scroll && position >= 0) {
      const top = position * ROW;
      const view = this.scroller.clientHeight;
      if (top < this.scroller.scrollTop) this.scroller.scrollTop = top;
      else if (top + ROW > this.scroller.scrollTop + view) this.scroller.scrollTop = top + ROW - view;
    }
    this.scroller.setAttribute('aria-activedescendant', position >= 0 ? `file-${position}` : '');
    this.draw();
    this.onSelect(this.items[index], { user });
  }

  /** Opens every closed folder above `path`, so that its row is drawn. */
  openFoldersOf(path) {
    const before = this.collapsed.size;
    for (const folder of [...this.collapsed]) if (path.startsWith(`${folder}/`)) this.collapsed.delete(folder);
    if (this.collapsed.size !== before) this.refilter();
  }

  /** Moves the selection by `step` among the files shown. */
  move(step) {
    if (!this.shown.length) return;
    const position = this.shown.indexOf(this.selected);
    const next = position < 0 ? 0 : Math.max(0, Math.min(this.shown.length - 1, position + step));
    this.select(this.shown[next], { user: true });
  }

  focusFilter() {
    this.input.focus();
    this.input.select();
  }
}
