// A table page's socket, opened as soon as the page is read, while the page's own script is
// still on its way: on a slow network the socket's handshake is a round trip of its own, and
// this way it overlaps the script's. The page's connection (net.js) takes the socket over and
// says hello on it. A newcomer's link (`?join=CODE`) opens none: who they are comes first
// (seat.js). A classic script that build.rs writes into each table page (`data-inline`).
(function () {
  var table = location.pathname.match(/^\/t\/([0-9a-fA-F]+)\/?$/);
  if (!table || new URLSearchParams(location.search).has('join')) return;
  var scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  // The seat this tab speaks for, when its browser holds several (common/device.js).
  var seat = null;
  try {
    seat = sessionStorage.getItem('prophecy.seat.' + table[1]);
  } catch {
    // No storage: the browser's first seat.
  }
  var query = seat && /^\d+$/.test(seat) ? '?seat=' + seat : '';
  try {
    window.prophecyEarlySocket = new WebSocket(scheme + '//' + location.host + '/t/' + table[1] + '/ws' + query);
  } catch {
    // The page's connection opens its own, and says why not.
  }
})();
