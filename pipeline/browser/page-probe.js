// The page probe: installed with context.addInitScript, so it runs in every document before the
// page's own scripts. It records, on the page's clock (performance.now()):
//   - the action's dispatch: the first trusted click, when a capture listener on window receives
//     it, i.e. when the page dispatches it to its handlers (event.timeStamp, the input's creation
//     time upstream, is kept beside it);
//   - DOM evidence: a MutationObserver on the whole document that keeps every change of a
//     [data-ui] attribute (the page's declared rendering state: optimistic | confirmed | rolled-back);
// The application's own commit is read separately, from its User Timing marks (app:*).
// Plain JavaScript on purpose: it is shipped to the page as text, untouched by any transpiler.
(() => {
  if (window.__evidenceProbe) return;
  const probe = { clicks: [], dom: [], installedAt: performance.now() };
  window.__evidenceProbe = probe;
  window.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target : null;
    probe.clicks.push({ t: performance.now(), input_t: event.timeStamp, trusted: event.isTrusted, target: target && (target.id || target.tagName.toLowerCase()) });
  }, { capture: true });
  const observer = new MutationObserver((records) => {
    const t = performance.now();
    for (const r of records) {
      if (r.type !== 'attributes' || r.attributeName !== 'data-ui' || !(r.target instanceof Element)) continue;
      const value = r.target.getAttribute('data-ui');
      if (value === r.oldValue) continue;
      probe.dom.push({ t, state: value, target: r.target.id || r.target.tagName.toLowerCase(), text: (r.target.textContent || '').trim().slice(0, 120) });
    }
  });
  observer.observe(document, { subtree: true, attributes: true, attributeOldValue: true, attributeFilter: ['data-ui'] });
})();
