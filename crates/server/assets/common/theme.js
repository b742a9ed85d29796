// The page's theme: the system's (light or dark, as the device is set), or the one this player
// chose, kept in this browser. A classic script loaded first in <head>, so the chosen theme is
// there before the page paints. Every page's theme menu is a <select data-theme-select>
// (options system, light, dark); this script keeps each one in step and applies a change.
(function () {
  var KEY = 'prophecy.theme';
  var root = document.documentElement;

  function chosen() {
    try {
      var t = localStorage.getItem(KEY);
      return t === 'light' || t === 'dark' ? t : 'system';
    } catch {
      return 'system';
    }
  }

  /** @param {string} theme */
  function apply(theme) {
    if (theme === 'light' || theme === 'dark') root.setAttribute('data-theme', theme);
    else root.removeAttribute('data-theme');
  }

  function sync() {
    var menus = document.querySelectorAll(/** @type {'select'} */ ('select[data-theme-select]'));
    for (var i = 0; i < menus.length; i++) if (menus[i].value !== chosen()) menus[i].value = chosen();
  }

  apply(chosen());
  document.addEventListener('change', function (e) {
    var menu = e.target;
    if (!(menu instanceof HTMLSelectElement) || !menu.matches('select[data-theme-select]')) return;
    try {
      if (menu.value === 'system') localStorage.removeItem(KEY);
      else localStorage.setItem(KEY, menu.value);
    } catch {
      // Storage refused: the theme holds for this page.
    }
    apply(menu.value);
    sync();
  });
  // Another tab changed it.
  window.addEventListener('storage', function (e) {
    if (e.key === KEY) {
      apply(chosen());
      sync();
    }
  });
  document.addEventListener('DOMContentLoaded', sync);
  // Pages that render their footer later call this (through window) after rendering.
  window.prophecyTheme = { chosen: chosen, sync: sync };
})();
