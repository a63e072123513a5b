// A turn's (or a range's) files: a filterable, virtualised list. Only the rows in view are in the DOM, so a
// 1,000-file turn draws as fast as a 10-file one.
import { h, fill } from './dom.js';
import { count, plural, splitPath } from './format.js';
import { fileFlags } from './listing.js';
import { changeMark, flagOf } from './ui.js';

const ROW = 34;
const OVERSCAN = 8;

export class FileList {
  constructor({ onSelect, extra }) {
    this.onSelect = onSelect;
    this.extra = extra;          // record -> extra node for the row (e.g. the turns of a range record)
    this.items = [];
    this.shown = [];             // indices into items that pass the filter
    this.selected = -1;          // index into items
    this.filter = '';
    this.hideUnchanged = false;
    this.input = h('input', { type: 'search', class: 'filter', placeholder: 'Filter files  /', 'aria-label': 'Filter files', autocomplete: 'off', spellcheck: 'false',
      oninput: () => { this.filter = this.input.value; this.refilter(); } });
    this.unchangedToggle = h('label', { class: 'toggle', title: 'Hide files the turn recorded but left unchanged' },
      h('input', { type: 'checkbox', onchange: e => { this.hideUnchanged = e.target.checked; this.refilter(); } }), 'hide unchanged');
    this.summary = h('div', { class: 'filelist-summary muted small', role: 'status' });
    this.rows = h('div', { class: 'filelist-rows' });
    this.spacer = h('div', { class: 'filelist-spacer' }, this.rows);
    this.scroller = h('div', { class: 'filelist-scroller', role: 'listbox', tabindex: '0', 'aria-label': 'Files',
      onscroll: () => this.schedule() }, this.spacer);
    this.el = h('div', { class: 'filelist' }, h('div', { class: 'filelist-tools' }, this.input, this.unchangedToggle), this.summary, this.scroller);
    new ResizeObserver(() => this.schedule()).observe(this.scroller);
  }

  setItems(items) {
    const path = this.items[this.selected]?.path;
    this.items = items;
    this.selected = path === undefined ? -1 : items.findIndex(r => r.path === path);
    this.refilter();
  }

  refilter() {
    const needle = this.filter.trim().toLowerCase();
    this.shown = [];
    this.items.forEach((r, i) => {
      if (this.hideUnchanged && r.change === 'unchanged') return;
      if (needle && !r.path.toLowerCase().includes(needle)) return;
      this.shown.push(i);
    });
    this.spacer.style.height = `${this.shown.length * ROW}px`;
    const unchanged = this.items.filter(r => r.change === 'unchanged').length;
    this.unchangedToggle.hidden = unchanged === 0;
    fill(this.summary, this.shown.length === this.items.length ? plural(this.items.length, 'file')
      : `${count(this.shown.length)} of ${count(this.items.length)} files`);
    this.draw();
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
    const last = Math.min(this.shown.length, Math.ceil((top + height) / ROW) + OVERSCAN);
    this.rows.style.transform = `translateY(${first * ROW}px)`;
    const nodes = [];
    for (let n = first; n < last; n++) nodes.push(this.row(this.shown[n], n));
    this.rows.replaceChildren(...nodes);
  }

  row(index, position) {
    const r = this.items[index];
    const [dir, name] = splitPath(r.path);
    const selected = index === this.selected;
    return h('div', { class: ['file-row', selected && 'selected', r.change === 'unchanged' && 'is-unchanged'], role: 'option', id: `file-${position}`, dataset: { path: r.path },
      aria: { selected: String(selected), setsize: this.shown.length, posinset: position + 1 }, title: r.path,
      onclick: () => this.select(index, { scroll: false, user: true }) },
      changeMark(r),
      h('span', { class: 'file-path' }, h('span', { class: 'file-dir' }, dir), h('span', { class: 'file-name' }, name)),
      h('span', { class: 'file-flags' }, fileFlags(r).map(flagOf), this.extra?.(r)),
      r.added || r.removed ? h('span', { class: 'file-lines' }, r.added ? h('span', { class: 'added' }, `+${count(r.added)}`) : null,
        r.removed ? h('span', { class: 'removed' }, `−${count(r.removed)}`) : null) : null);
  }

  /** Selects items[index]; scrolls it into view unless told not to. */
  select(index, { scroll = true, user = false } = {}) {
    if (index < 0 || index >= this.items.length) return;
    this.selected = index;
    const position = this.shown.indexOf(index);
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
