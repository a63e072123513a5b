// The rules the CSP enforces in the browser (docs/review-panel.md, section 3), checked in the sources so that
// a break fails the build instead of a page under the CSP. build.mjs applies them to src/; tests/ proves
// that each rule catches what it is for.

/** The one module that may turn a string into HTML: diff2html's output, through the Trusted Types policy. */
export const HTML_MODULE = 'assets/js/diff.js';

/** What breaks a rule in one source file (`file` relative to src/), as messages; none when it is clean. */
export function sourceProblems(file, text) {
  const problems = [];
  const where = `src/${file}`;
  if (file.endsWith('.js')) {
    if (/\beval\s*\(|new\s+Function\b|set(?:Timeout|Interval)\s*\(\s*['"`]/.test(text)) problems.push(`${where}: eval-like code (the CSP forbids it)`);
    if (/\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML|document\.write|createContextualFragment|DOMParser/.test(text) && file !== HTML_MODULE) {
      problems.push(`${where}: HTML from a string (only diff.js inserts HTML: diff2html's output, through the Trusted Types policy)`);
    }
    if (/rawTemplates/.test(text)) problems.push(`${where}: diff2html rawTemplates compile with new Function: never pass them`);
    if (/setAttribute\(\s*['"]style['"]|[{,]\s*style\s*:\s*['"`]/.test(text)) problems.push(`${where}: a style attribute (the CSP allows style sheets only; set el.style properties)`);
    if (/javascript:/i.test(text)) problems.push(`${where}: a javascript: URL`);
    // an image of a file is shown by the service's raw route alone, with its own type and policy: its bytes
    // never enter the page as a data: or blob: URL (an SVG's markup would come along)
    if (/['"`]\s*(data|blob):|createObjectURL/i.test(text)) problems.push(`${where}: a data: or blob: URL (images come from the service's raw route)`);
  }
  if (file.endsWith('.html')) {
    if (/<script(?![^>]*\bsrc=)[^>]*>/i.test(text)) problems.push(`${where}: an inline script`);
    if (/<style\b|\sstyle=|\son[a-z]+=/i.test(text)) problems.push(`${where}: inline style or an inline event handler`);
    if (/javascript:/i.test(text)) problems.push(`${where}: a javascript: URL`);
  }
  return problems;
}

/** Every module is preloaded by index.html, so that the browser fetches them at once, not import by import. */
export function preloadProblems(indexHtml, modules) {
  return modules.filter(file => !indexHtml.includes(`<link rel="modulepreload" href="${file}">`))
    .map(file => `src/index.html: no modulepreload link for ${file}`);
}
