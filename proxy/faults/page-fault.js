// The page fault the proxy puts first into the <head> of each document of a spec's pages
// (proxy/src/inject.ts, which puts its settings in place of the placeholder at the end). It
// removes its own element at once and defines no global; what stays is the fault alone:
//   hideMs   a constructed style sheet (never an element) hides the target until hideMs after
//            DOMContentLoaded; while it is hidden an activation of it does nothing
//   decoys   inert copies of the target, with its role and accessible name but no id or name,
//            stand beside it, decoysBefore of them before it; activating one does nothing
//   swallow  the first `swallow` activations of the target do nothing
//   popup    (a transport fault, proxy/faults/transport.json) a dialog over the whole page from
//            DOMContentLoaded on: a title, a big button that leads to the origin's / (away from
//            the task), a small "Close" button that removes it; it takes every pointer event
//            while it is there. Its elements are the fault, like the decoys: they are the page's now
// An activation is a click event (a click, Enter or Space on it, an implicit submission through it,
// element.click()); "does nothing" is preventDefault and stopImmediatePropagation in the capture
// phase on window, before any listener of the page. ASCII only, no closing script tag (inject.ts checks).
(function (fault) {
  'use strict';
  var self = document.currentScript;
  if (self && self.parentNode) self.parentNode.removeChild(self);
  try { document.querySelector(fault.selector); } catch (e) { return; }

  var decoys = new WeakSet();
  var hidden = false;
  var swallowed = 0;

  function decoyAround(node) {
    for (var n = node; n; n = n.parentNode) if (decoys.has(n)) return n;
    return null;
  }
  function targetAround(node) {
    var el = node && node.nodeType === 1 ? node : node && node.parentElement;
    for (; el; el = el.parentElement) if (!decoys.has(el) && el.matches(fault.selector)) return el;
    return null;
  }
  function firstTarget() {
    var all = document.querySelectorAll(fault.selector);
    for (var i = 0; i < all.length; i++) if (!decoys.has(all[i]) && !decoyAround(all[i])) return all[i];
    return null;
  }
  function nothing(event) {
    event.preventDefault();
    event.stopImmediatePropagation();
  }

  window.addEventListener('click', function (event) {
    if (decoyAround(event.target)) return nothing(event);
    if (!targetAround(event.target)) return;
    if (hidden) return nothing(event);
    if (swallowed < fault.swallow) {
      swallowed += 1;
      nothing(event);
    }
  }, true);

  if (fault.hideMs > 0) {
    var sheet = new CSSStyleSheet();
    sheet.replaceSync(fault.selector + '{display:none !important}');
    var sheets = Array.prototype.slice.call(document.adoptedStyleSheets);
    sheets.push(sheet);
    document.adoptedStyleSheets = sheets;
    hidden = true;
    var reveal = function () {
      setTimeout(function () {
        hidden = false;
        document.adoptedStyleSheets = Array.prototype.filter.call(document.adoptedStyleSheets, function (s) { return s !== sheet; });
      }, fault.hideMs);
    };
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', reveal, { once: true });
    else reveal();
  }

  if (fault.decoys > 0) {
    // a middle click would open a copied link: a decoy opens nothing
    window.addEventListener('auxclick', function (event) { if (decoyAround(event.target)) nothing(event); }, true);
    var beside = null;
    var placed = [];
    var watching = null;
    var copy = function (target) {
      var decoy = target.cloneNode(true);
      var all = [decoy].concat(Array.prototype.slice.call(decoy.querySelectorAll('*')));
      for (var i = 0; i < all.length; i++) {
        ['id', 'name', 'form', 'formaction', 'for'].forEach(function (a) { all[i].removeAttribute(a); });
      }
      var tag = decoy.localName;
      var type = (decoy.getAttribute('type') || '').toLowerCase();
      if (tag === 'input' && type === 'submit') decoy.setAttribute('type', 'button');
      if (tag === 'button' && (type === '' || type === 'submit')) decoy.setAttribute('type', 'button');
      if (tag === 'a' && decoy.hasAttribute('href')) decoy.setAttribute('href', '#');
      // a name that came from a <label for> or aria-labelledby (ids the copy lacks) is given directly
      if ((target.labels && target.labels.length) || target.hasAttribute('aria-labelledby')) decoy.setAttribute('aria-label', fault.name);
      decoys.add(decoy);
      return decoy;
    };
    var remove = function (node) { if (node.parentNode) node.parentNode.removeChild(node); };
    var place = function () {
      var target = firstTarget();
      if (target === beside && placed.every(function (d) { return d.isConnected; })) return;
      placed.forEach(remove);
      placed = [];
      beside = target;
      if (watching) watching.disconnect();
      if (!target || !target.parentNode) return;
      var parent = target.parentNode;
      var gap = function () { var space = document.createTextNode(' '); placed.push(space); return space; };
      var ref = target.nextSibling;
      for (var i = 0; i < fault.decoys; i++) {
        var decoy = copy(target);
        placed.push(decoy);
        if (i < fault.decoysBefore) {
          parent.insertBefore(decoy, target);
          parent.insertBefore(gap(), target);
        } else {
          parent.insertBefore(gap(), ref);
          parent.insertBefore(decoy, ref);
        }
      }
      // the copies follow the target when it changes (a label, a disabled state)
      watching = new MutationObserver(function () { beside = null; place(); });
      watching.observe(target, { attributes: true, childList: true, characterData: true, subtree: true });
    };
    new MutationObserver(place).observe(document, { childList: true, subtree: true });
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', place, { once: true });
    place();
  }
  if (fault.popup) {
    var show = function () {
      if (!document.body) return;
      var shade = document.createElement('div');
      shade.style.cssText = 'position:fixed;inset:0;z-index:2147483647;background:rgba(0,0,0,0.55);display:flex;align-items:center;justify-content:center';
      var box = document.createElement('div');
      box.setAttribute('role', 'dialog');
      box.setAttribute('aria-modal', 'true');
      box.setAttribute('aria-label', fault.popup.title);
      box.style.cssText = 'background:#fff;color:#111;font:16px sans-serif;padding:28px 32px;border-radius:8px;max-width:420px;text-align:center;box-shadow:0 8px 32px rgba(0,0,0,0.4)';
      var title = document.createElement('h2');
      title.textContent = fault.popup.title;
      title.style.cssText = 'margin:0 0 20px;font-size:22px';
      var go = document.createElement('a');
      go.href = '/';
      go.textContent = fault.popup.button;
      go.style.cssText = 'display:block;background:#0a66d8;color:#fff;font-size:20px;padding:14px 24px;border-radius:6px;text-decoration:none;margin-bottom:14px';
      var close = document.createElement('button');
      close.type = 'button';
      close.textContent = 'Close';
      close.style.cssText = 'background:none;border:none;color:#555;font-size:12px;text-decoration:underline;cursor:pointer';
      close.addEventListener('click', function () { if (shade.parentNode) shade.parentNode.removeChild(shade); });
      box.appendChild(title);
      box.appendChild(go);
      box.appendChild(close);
      shade.appendChild(box);
      document.body.appendChild(shade);
    };
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', show, { once: true });
    else show();
  }
})(/*FAULT*/null);
