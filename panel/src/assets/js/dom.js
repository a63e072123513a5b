// Building DOM from data. Everything a user or an agent controls (file names, content, reasons, details,
// ids) goes in as text nodes or attribute values, never as markup: this module has no innerHTML at all.
// The only HTML string the panel inserts is diff2html's output, through the one Trusted Types policy in
// diff.js (the CSP requires Trusted Types, so any other innerHTML assignment throws).

/**
 * h('a', {class: 'x', href: '#/', onclick: f, dataset: {k: 'v'}, aria: {label: 'y'}}, 'text', child, [more])
 * Strings become text nodes; null, undefined and false are skipped; arrays are flattened.
 */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  if (props) {
    for (const [key, value] of Object.entries(props)) {
      if (value === undefined || value === null || value === false) continue;
      if (key === 'class') el.className = Array.isArray(value) ? value.filter(Boolean).join(' ') : value;
      else if (key === 'dataset') Object.assign(el.dataset, value);
      else if (key === 'aria') for (const [k, v] of Object.entries(value)) el.setAttribute(`aria-${k}`, String(v));
      else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
      else if (key === 'text') el.textContent = String(value);
      else if (key in el && typeof value !== 'string') el[key] = value;
      else el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replaces an element's children (never through innerHTML, which Trusted Types forbids anyway). */
export function fill(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

/** A small inline SVG icon from a fixed set (shapes are constants, never data). */
const ICONS = {
  folder: 'M3 6.5A1.5 1.5 0 0 1 4.5 5h4l2 2h9A1.5 1.5 0 0 1 21 8.5v9a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 17.5z',
  chat: 'M4 5h16v11H9l-5 4z',
  rewind: 'M11 7 5 12l6 5V7zm8 0-6 5 6 5V7z',
  undo: 'M9 7 4 12l5 5M4 12h10a6 6 0 0 1 0 12',
  history: 'M12 7v5l3 2M3.5 12a8.5 8.5 0 1 0 2.5-6M3 4v4h4',
  range: 'M4 12h16M8 8l-4 4 4 4M16 8l4 4-4 4',
  warn: 'M12 4 2.5 20h19zM12 10v4M12 17v.5',
  shell: 'M4 6l5 5-5 5M11 17h9',
  lock: 'M7 11V8a5 5 0 0 1 10 0v3M5 11h14v9H5z',
  file: 'M6 3h8l4 4v14H6zM14 3v4h4',
  binary: 'M6 3h8l4 4v14H6zM9 12v4M12 12h2v4h-2zM9 12',
  check: 'M5 12l4 4 10-10',
  x: 'M6 6l12 12M18 6 6 18',
  back: 'M15 5l-7 7 7 7',
  eye: 'M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12zM12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6z',
  link: 'M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1',
};
const SVG = 'http://www.w3.org/2000/svg';
export function icon(name, label) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', `icon icon-${name}`);
  if (label) {
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', label);
  } else {
    svg.setAttribute('aria-hidden', 'true');
  }
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('d', ICONS[name]);
  svg.append(path);
  return svg;
}

/** A route link: href is a hash route built by routes.js from encoded parts. */
export function link(href, ...children) {
  return h('a', { href }, ...children);
}
