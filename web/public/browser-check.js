/*
 * Runs before the application, as a classic script in the syntax every
 * browser reads (no arrow functions, no let/const): a browser that lacks
 * what the application's code needs (the spec's old-IE case) gets a plain
 * message in Chinese and English instead of a page stuck on "Loading".
 * A separate file, not inline, because the Content-Security-Policy allows
 * scripts from the site only.
 */
(function () {
  var w = window;
  var messages = [
    '您的浏览器版本过低，无法运行本系统。请使用最新版的 Chrome、Edge、Firefox 或 Safari 浏览器。',
    'Your browser cannot run this application. Please use a current version of Chrome, Edge, Firefox or Safari.'
  ];

  function show() {
    var root = document.getElementById('root');
    if (!root || root.getAttribute('data-unsupported')) return;
    root.setAttribute('data-unsupported', '1');
    while (root.firstChild) root.removeChild(root.firstChild);
    var box = document.createElement('div');
    box.className = 'boot';
    box.setAttribute('data-testid', 'browser-unsupported');
    box.setAttribute('role', 'alert');
    box.style.flexDirection = 'column';
    box.style.padding = '24px';
    box.style.textAlign = 'center';
    for (var i = 0; i < messages.length; i++) {
      var p = document.createElement('p');
      p.appendChild(document.createTextNode(messages[i]));
      box.appendChild(p);
    }
    root.appendChild(box);
  }

  // What the built code calls or parses without a fallback: ES modules,
  // and the newest built-ins of the browsers the build targets.
  function supported() {
    var script = document.createElement('script');
    return (
      'noModule' in script &&
      typeof w.Promise === 'function' &&
      typeof w.fetch === 'function' &&
      typeof w.Proxy === 'function' &&
      typeof w.AbortController === 'function' &&
      typeof w.ResizeObserver === 'function' &&
      typeof w.structuredClone === 'function' &&
      typeof Object.hasOwn === 'function' &&
      typeof Array.prototype.at === 'function'
    );
  }

  if (!supported()) {
    show();
    return;
  }
  // A browser that reads modules but not the syntax of the built code
  // fails to parse it: the application never starts, so say why.
  w.addEventListener('error', function (event) {
    var started = document.querySelector('#root > :not(.boot)');
    var error = event && event.error;
    var syntax = (error && error.name === 'SyntaxError') || /SyntaxError/.test((event && event.message) || '');
    if (syntax && !started) show();
  });
})();
