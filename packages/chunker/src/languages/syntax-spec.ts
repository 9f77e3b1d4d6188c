import type { SyntaxSpec } from './language-spec.js';

/**
 * A `SyntaxSpec` with empty defaults for the lists a language does not need: most grammars have no
 * function values bound to variables, no pass-through expressions and no decorators as siblings.
 */
export function syntaxSpec(spec: Pick<SyntaxSpec, 'grammar' | 'definitions' | 'blockTypes'> & Partial<SyntaxSpec>): SyntaxSpec {
  return {
    comments: ['comment'],
    attachToNext: [],
    functionValues: [],
    objectValues: [],
    callValues: [],
    passThrough: [],
    ...spec,
  };
}
