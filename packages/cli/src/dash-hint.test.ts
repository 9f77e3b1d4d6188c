import { describe, expect, it } from 'vitest';
import { withDashHint } from './dash-hint.js';

describe('withDashHint', () => {
  it('tells how to search for text starting with a dash (a trial got only "unknown option")', () => {
    expect(withDashHint("error: unknown option '-1 offset'\n")).toBe(
      "error: unknown option '-1 offset'\n(to search for text that starts with \"-\", put -- before it, after the options: monorag search --project . -- '-1 offset')\n",
    );
    expect(withDashHint("error: unknown option '-5'\n")).toContain("-- '-5'");
    // A single dash before several letters is no option of monorag (trial: no hint for -foo).
    expect(withDashHint("error: unknown option '-foo'\n")).toContain("-- '-foo'");
    expect(withDashHint("error: unknown option '-x'\n")).toBe("error: unknown option '-x'\n");
  });

  it('leaves other errors, and mistyped options, as they are', () => {
    expect(withDashHint("error: unknown option '--limt'\n")).toBe("error: unknown option '--limt'\n");
    expect(withDashHint("error: too many arguments for 'search'. Expected 1 argument but got 2.\n")).toBe("error: too many arguments for 'search'. Expected 1 argument but got 2.\n");
  });
});
