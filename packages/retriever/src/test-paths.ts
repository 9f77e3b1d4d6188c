// Folder names that hold tests, by the conventions of common test runners (Jest/Vitest `__tests__`,
// Mocha/tap/pytest `test`/`tests`, RSpec/Jasmine `spec`, Go `testdata`).
const TEST_DIRS = new Set(['test', 'tests', '__tests__', 'spec', 'specs', '__mocks__', 'testdata']);

// File names that are tests: `x.test.ts`, `x.spec.js`, `x_test.go`, `x_test.py`, `test_x.py`,
// `XTest.java`, `XTests.cs`, `x_spec.rb`, pytest's `conftest.py`.
const TEST_FILE = /(?:[._-](?:test|spec)s?\.[A-Za-z0-9]+$)|(?:^test_[^/]*\.py$)|(?:^conftest\.py$)|(?:[a-z0-9]Tests?\.(?:java|kt|scala|cs|swift|php)$)/;

/**
 * Whether a repo-relative path (POSIX separators) is a test file by the naming conventions of the
 * common test runners: a folder named `test`, `tests`, `__tests__`, `spec`, `specs`, `__mocks__` or
 * `testdata` anywhere in the path, or a file named like `x.test.ts`, `x.spec.js`, `x_test.go`,
 * `test_x.py`, `conftest.py`, `XTest.java`, `XTests.cs`, `x_spec.rb`. A module *about* testing
 * (`src/click/testing.py`, `lib/mock/mock-agent.js`) is not a test file.
 */
export function isTestPath(path: string): boolean {
  const parts = path.split('/');
  const file = parts.pop() ?? '';
  return parts.some((dir) => TEST_DIRS.has(dir)) || TEST_FILE.test(file);
}

/**
 * Whether a search scoped to the path prefix `prefix` (a folder or a file, repo-relative) searches tests:
 * a folder of the prefix is a test folder as {@link isTestPath} knows them (`test/`, `pkg/__tests__`,
 * `test/unit/x.js`). The test-file prior stands aside for such a search.
 */
export function isTestScope(prefix: string): boolean {
  // Read as a folder: its last segment counts as a folder name too.
  return isTestPath(`${prefix.replace(/\/$/, '')}/x`);
}
