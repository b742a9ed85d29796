// What the pages add to the browser's globals.

declare global {
  interface Element {
    /** Delegated handlers by event type (common/dom.js: `h` sets them, `delegate` runs them). */
    __h?: Record<string, (e: Event, el: Element) => void>;
  }
  interface Window {
    /** The theme menu's keeper (common/theme.js, a classic script). */
    prophecyTheme?: { chosen(): 'system' | 'light' | 'dark'; sync(): void };
    /** The table's socket, opened before the page's module ran (common/early-socket.js). */
    prophecyEarlySocket?: WebSocket;
    /** The test hooks of a table page (common/table-page.js). */
    prophecy?: Record<string, () => unknown>;
  }
}

export {};
