// ESLint (flat config): typescript-eslint's recommended rules, `any` as a warning (the solvers
// take JSON arguments; typed tool arguments arrive tool by tool), and no import cycles
// (import-x/no-cycle: the engine's layers import one way only).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'out/**', '.vscode-test/**', 'test-results/**', 'test/fixtures/**', '**/*.d.ts', 'media/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.mts', '**/*.mjs', '**/*.js'],
    plugins: { 'import-x': importX },
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: {
        console: 'readonly',
        process: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setImmediate: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        performance: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        structuredClone: 'readonly',
        __dirname: 'readonly',
        require: 'readonly',
        module: 'writable',
        globalThis: 'readonly',
        queueMicrotask: 'readonly',
        document: 'readonly',
        window: 'readonly',
        Node: 'readonly',
        acquireVsCodeApi: 'readonly',
      },
    },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
    rules: {
      '@typescript-eslint/no-explicit-any': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // `cond && act()` and `c ? f() : g()` as statements are used on purpose in the kernels' loops
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
      // the request reader's regular expressions escape [ and ) inside character classes for
      // the reader's eye; the escapes are harmless and removing them makes them harder to check
      'no-useless-escape': 'off',
      // best-effort clean-up (killing a process that may be gone, removing a temp file) is an empty catch
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
);
