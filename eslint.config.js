// ESLint decides style together with Prettier (eslint-config-prettier turns off what Prettier owns).
// TypeScript (src, test) is linted with type information; the plain JavaScript (bench, scripts,
// migrations, the browser scripts) with the rules that need none: no tsconfig of the linted
// projects covers those files (the browser scripts are type-checked through tsconfig.ui.json,
// which `npm run typecheck` runs; it sits outside src/web/public, whose files are served).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'coverage/**', 'node_modules/**'] },
  js.configs.recommended,
  {
    rules: {
      // Validation of headers, e-mail addresses and user input matches control characters on purpose.
      'no-control-regex': 'off',
    },
  },
  {
    files: ['**/*.ts'],
    extends: [...tseslint.configs.strictTypeChecked],
    languageOptions: {
      parserOptions: {
        // vitest.config.ts belongs to test/tsconfig.json, which the project service does not look for at the root.
        projectService: { allowDefaultProject: ['vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // A number renders the same in any template; the other types (nullish, objects) stay refused.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // `() => void` one-liners such as `(s) => output.out(s)` read plainly; braces would only add noise.
      // Returning a void call from a block body is still refused.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // Destructuring properties beside a rest element is how an object is copied without them.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    files: ['src/storage/knex/**/*.ts'],
    rules: {
      // knex types raw and aggregate results as any, or infers a query's type arguments from the assertion
      // around it: the rule calls those assertions unnecessary, yet without them the rows are any.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // knex's where-callbacks return the (thenable) query builder, which knex ignores.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // Tests read JSON responses, parsed HTML and third-party fixtures whose shapes are untyped (any);
      // a wrong shape fails the assertion that reads it.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      // `expect(service.method).toBeTypeOf('function')` and fakes copied from objects name methods without calling them.
      '@typescript-eslint/unbound-method': 'off',
      // A test asserts what it just created or looked up: `!` there fails the test loudly when wrong.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Set-up in beforeAll may fail, so teardown guards variables whose types say they are always set
      // (`await browser?.close()`), and fixtures check what third-party servers send.
      '@typescript-eslint/no-unnecessary-condition': 'off',
      // Fakes implement async interfaces with bodies that need no await.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['src/web/public/ui/**/*.js'],
    languageOptions: { globals: globals.browser },
  },
  {
    // The screenshot script's page.evaluate callbacks run in the browser.
    files: ['scripts/screenshots.mjs'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  prettier,
);
