// The inline style and script of reports/index.html: the page carries everything it needs, so it
// opens from a CI artifact with no network at all.

export const STYLE = `
:root { --pass: #1a7f37; --fail: #cf222e; --skip: #6e7781; --unc: #9a6700; --line: #d0d7de; --bg2: #f6f8fa;
  /* Height of the sticky filter bar (the script measures it; it wraps on narrow screens). */
  --sticky: 38px; --thead: 30px; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; color: #1f2328; }
header { padding: 16px 24px; color: #fff; }
header.exit-0 { background: var(--pass); } header.exit-1 { background: var(--fail); } header.exit-2, header.exit-130, header.exit-143 { background: var(--unc); }
header h1 { margin: 0 0 4px; font-size: 22px; }
header p { margin: 0; opacity: .95; word-break: break-all; }
main { padding: 8px 24px 48px; max-width: 1400px; }
h2 { font-size: 17px; margin: 24px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
.totals { display: flex; flex-wrap: wrap; gap: 12px; margin-top: 16px; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; min-width: 260px; background: var(--bg2); }
.card h3 { margin: 0 0 4px; font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: #57606a; }
.card .n { display: inline-block; margin-right: 14px; font-size: 22px; font-weight: 600; }
.card .n small { display: block; font-size: 11px; font-weight: 400; color: #57606a; }
/* Status colours for text (totals, filter labels, history); badges and chips colour their background. */
.text-status.passed { color: var(--pass); } .text-status.failed { color: var(--fail); }
.text-status.skipped { color: var(--skip); } .text-status.uncovered { color: var(--unc); }
/* Room for the sticky filter bar (and, for a rule, the table's sticky header) when a link jumps. */
details.check { scroll-margin-top: calc(var(--sticky) + 8px); }
tr[id] { scroll-margin-top: calc(var(--sticky) + var(--thead) + 8px); }
.badge { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px; font-weight: 600; color: #fff; white-space: nowrap; }
.badge.passed { background: var(--pass); } .badge.failed { background: var(--fail); }
.badge.skipped { background: var(--skip); } .badge.uncovered { background: var(--unc); }
.badge.soft { background: #bc4c00; }
/* The rate-limit probe's picture (load-run section): as wide as the page allows. */
.limiter svg { max-width: 100%; height: auto; }
.problems { border: 2px solid var(--unc); border-radius: 6px; padding: 8px 14px; background: #fff8c5; }
.filters { position: sticky; top: 0; background: #fff; padding: 8px 0; border-bottom: 1px solid var(--line); z-index: 1; display: flex; gap: 16px; align-items: center; flex-wrap: wrap; }
.filters label { cursor: pointer; }
.map { display: grid; grid-template-columns: max-content 1fr; gap: 4px 12px; align-items: start; }
.map .area { font-weight: 600; padding-top: 2px; }
.chips { display: flex; flex-wrap: wrap; gap: 4px; }
.chip { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; padding: 2px 6px; border-radius: 4px; color: #fff; text-decoration: none; }
.chip.passed { background: var(--pass); } .chip.failed { background: var(--fail); }
.chip.skipped { background: var(--skip); } .chip.uncovered { background: var(--unc); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; border-bottom: 1px solid var(--line); padding: 4px 8px; }
th { background: var(--bg2); position: sticky; top: var(--sticky); }
td.id, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12.5px; white-space: nowrap; }
details.check { border: 1px solid var(--line); border-radius: 6px; margin: 6px 0; }
details.check > summary { cursor: pointer; padding: 6px 10px; list-style-position: inside; }
details.check[open] > summary { border-bottom: 1px solid var(--line); background: var(--bg2); }
details.check.failed { border-left: 4px solid var(--fail); }
.body { padding: 8px 12px; }
.reason { white-space: pre-wrap; word-break: break-word; background: #ffebe9; padding: 6px 10px; border-radius: 4px; margin: 0 0 8px; }
.check.skipped .reason { background: var(--bg2); }
.exchange { border: 1px solid var(--line); border-radius: 4px; margin: 8px 0; }
.exchange.failing { border: 2px solid var(--fail); }
pre.reproduce { white-space: pre-wrap; word-break: break-all; }
.exchange h4 { margin: 0; padding: 4px 8px; background: var(--bg2); font: 600 12.5px ui-monospace, Menlo, monospace; word-break: break-all; }
.exchange .cols { display: grid; grid-template-columns: 1fr 1fr; }
.exchange .cols > div { padding: 6px 8px; min-width: 0; }
.exchange .cols > div + div { border-left: 1px solid var(--line); }
pre { margin: 4px 0; white-space: pre-wrap; word-break: break-all; font: 12px/1.4 ui-monospace, Menlo, monospace; max-height: 420px; overflow: auto; background: var(--bg2); padding: 6px; border-radius: 4px; }
.muted { color: #57606a; }
.count { color: #57606a; font-size: 13px; }
`;

// Filters: an element with data-status (and data-area) is shown when both filters let it through.
export const SCRIPT = `
(function () {
  var area = document.getElementById('filter-area');
  var boxes = Array.prototype.slice.call(document.querySelectorAll('input[name="status"]'));
  var items = Array.prototype.slice.call(document.querySelectorAll('[data-status]'));
  function apply() {
    var on = {};
    boxes.forEach(function (b) { on[b.value] = b.checked; });
    var shown = { rule: 0, check: 0 };
    items.forEach(function (el) {
      var show = (area.value === 'all' || el.getAttribute('data-area') === area.value) && on[el.getAttribute('data-status')] === true;
      el.hidden = !show;
      var kind = el.getAttribute('data-kind');
      if (show && kind) shown[kind]++;
    });
    document.getElementById('shown-rules').textContent = String(shown.rule);
    document.getElementById('shown-checks').textContent = String(shown.check);
  }
  // The table header sticks right under the filter bar, whose height depends on fonts and width.
  function measure() {
    var bar = document.querySelector('.filters');
    var head = document.querySelector('table.rules thead');
    var root = document.documentElement.style;
    if (bar) root.setProperty('--sticky', bar.offsetHeight + 'px');
    if (head) root.setProperty('--thead', head.offsetHeight + 'px');
  }
  window.addEventListener('resize', measure);
  measure();
  area.addEventListener('change', apply);
  boxes.forEach(function (b) { b.addEventListener('change', apply); });
  // A link to a check opens it.
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    if (el && el.tagName === 'DETAILS') { el.hidden = false; el.open = true; }
  }
  window.addEventListener('hashchange', openTarget);
  apply();
  openTarget();
})();
`;
