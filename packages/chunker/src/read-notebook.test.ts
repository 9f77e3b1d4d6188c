import { describe, expect, it } from 'vitest';
import { readNotebook, type Notebook } from './read-notebook.js';

const notebook = (text: string): Notebook => {
  const read = readNotebook(text);
  if (typeof read === 'string') throw new Error(`not read: ${read}`);
  return read;
};

describe('readNotebook', () => {
  it('decodes each source line and gives the 0-based file rows it is written on', () => {
    const text = [
      '{', //                                                   0
      ' "cells": [', //                                         1
      '  {"cell_type": "code", "metadata": {}, "outputs": [{"text": ["not source\\n"]}],', // 2
      '   "source": [', //                                      3
      '    "x = \\"a\\\\\\"\\"\\n",', //                        4: x = "a\""
      '    "def f(",', //                                       5: one line written as two strings
      '    "y):\\r\\n",', //                                    6
      '    "    return y"', //                                  7
      '   ]},', //                                              8
      '  {"cell_type": "heading", "source": "# Old\\nstyle"},', // 9: unknown type, one string
      '  {"cell_type": "markdown", "source": []},', //          10
      '  {"cell_type": "markdown"}', //                         11
      ' ],', //                                                 12
      ' "metadata": {"kernelspec": {"language": " R "}, "language_info": {"name": "python"}},', // 13
      ' "nbformat": 4, "nbformat_minor": 5', //                 14
      '}',
    ].join('\n');
    const read = notebook(text);
    expect(read.language).toBe('r');
    expect(read.cells).toEqual([
      { type: 'code', lines: ['x = "a\\""', 'def f(y):', '    return y'], firstRows: [4, 5, 7], lastRows: [4, 6, 7] },
      { type: 'raw', lines: ['# Old', 'style'], firstRows: [9, 9], lastRows: [9, 9] },
      { type: 'markdown', lines: [], firstRows: [], lastRows: [] },
      { type: 'markdown', lines: [], firstRows: [], lastRows: [] },
    ]);
  });

  it('keeps empty lines, drops the final line end, and defaults the language to python', () => {
    const read = notebook('{"nbformat": 4, "metadata": {}, "cells": [{"cell_type": "code", "source": ["a\\n", "\\n", "\\n", "b\\n"]}]}');
    expect(read.language).toBe('python');
    expect(read.cells[0]).toEqual({ type: 'code', lines: ['a', '', '', 'b'], firstRows: [0, 0, 0, 0], lastRows: [0, 0, 0, 0] });
  });

  it('takes the language_info name without a kernelspec language', () => {
    expect(notebook('{"nbformat": 4, "metadata": {"language_info": {"name": "Julia"}}, "cells": []}').language).toBe('julia');
  });

  it('says why a text is no nbformat 4 notebook', () => {
    expect(readNotebook('{"cells": [')).toBe('invalid-notebook');
    expect(readNotebook('[]')).toBe('invalid-notebook');
    expect(readNotebook('{"nbformat": "4", "cells": []}')).toBe('invalid-notebook');
    expect(readNotebook('{"nbformat": 4}')).toBe('invalid-notebook');
    expect(readNotebook('{"nbformat": 4, "cells": [1]}')).toBe('invalid-notebook');
    expect(readNotebook('{"nbformat": 4, "cells": [{"cell_type": "code", "source": ["a", 1]}]}')).toBe('invalid-notebook');
    expect(readNotebook('{"nbformat": 3, "worksheets": [{"cells": []}]}')).toBe('notebook-version');
  });

  it('reads the last of two source keys, as JSON.parse does, and ignores keys named source elsewhere', () => {
    const text = '{"nbformat": 4, "metadata": {"source": "m"}, "cells": [{"source": "first", "metadata": {"source": ["no"]}, "source": ["second"]}]}';
    expect(notebook(text).cells).toEqual([{ type: 'raw', lines: ['second'], firstRows: [0], lastRows: [0] }]);
  });

  it('does not overflow on deeply nested outputs', () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    const read = notebook(`{"nbformat": 4, "cells": [{"cell_type": "code", "outputs": ${deep}, "source": "x = 1"}]}`);
    expect(read.cells[0]?.lines).toEqual(['x = 1']);
  });
});
