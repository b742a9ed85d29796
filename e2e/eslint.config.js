// ESLint for the pages (crates/server/assets/): the recommended rules, in browser modules.
// Run from that folder (`npm run lint` does), since a flat config applies below its base path.
import js from '@eslint/js';
import globals from 'globals';

export default [
  js.configs.recommended,
  {
    files: ['**/*.js'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: globals.browser },
  },
  {
    // Classic scripts, loaded before the modules (see the files).
    files: ['common/theme.js', 'common/early-socket.js'],
    languageOptions: { sourceType: 'script' },
  },
];
