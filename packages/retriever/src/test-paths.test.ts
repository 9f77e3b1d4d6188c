import { describe, expect, it } from 'vitest';
import { isTestPath, isTestScope } from './test-paths.js';

describe('isTestPath', () => {
  it('knows the test folders and file names of the common test runners', () => {
    const tests = [
      'test/basic.test.js', 'tests/test_options.py', 'packages/a/src/__tests__/x.ts', 'spec/models/user_spec.rb',
      'src/retry.test.ts', 'lib/x.spec.js', 'pkg/server/handler_test.go', 'app/test_views.py', 'conftest.py',
      'src/main/java/FooTest.java', 'Foo.Tests/BarTests.cs', 'internal/testdata/input.txt', 'src/__mocks__/fs.js',
    ];
    expect(tests.filter((p) => !isTestPath(p))).toEqual([]);
  });

  it('leaves modules about testing, and names that merely contain "test", as code', () => {
    const code = [
      'src/click/testing.py', 'lib/mock/mock-agent.js', 'lib/contest.js', 'src/latest.ts', 'src/attestation.go',
      'docs/testing.md', 'src/testUtils.ts', 'lib/protest/index.js', 'src/Attest.java',
    ];
    expect(code.filter((p) => isTestPath(p))).toEqual([]);
  });

  it('knows a search scoped to a test folder, or to a path inside one', () => {
    expect(['test', 'test/', 'pkg/__tests__', 'test/unit/x.js', 'lib', 'lib/', 'src/testing.py'].map(isTestScope)).toEqual([true, true, true, true, false, false, false]);
  });
});
