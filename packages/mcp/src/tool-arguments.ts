import { nearestName } from '@monorag/shared';
import { z } from 'zod';

/** `"langauge" (did you mean "language"?)`: an unknown key, with the nearest known one when close. */
function unknownKey(key: string, known: readonly string[]): string {
  const nearest = nearestName(key, known);
  return `"${key}"${nearest ? ` (did you mean "${nearest}"?)` : ''}`;
}

/**
 * The input schema of the tool `tool`: an object of `shape` that refuses arguments it does not know,
 * so that a misspelt optional argument (`langauge`) is an error rather than silently ignored, as the
 * REST API refuses unknown fields. The SDK reports the refusal as it reports a wrong type (an `isError`
 * result, "Input validation error"); the message names the unknown arguments, the nearest known name
 * when one is close, and the arguments the tool takes.
 */
export function toolArguments<Shape extends z.ZodRawShape>(tool: string, shape: Shape): z.ZodObject<Shape, z.core.$strict> {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code !== 'unrecognized_keys') return undefined;
      const keys = issue.keys.map((key) => unknownKey(key, known)).join(', ');
      const takes = known.length === 0 ? `${tool} takes no arguments` : `${tool} takes ${known.join(', ')}`;
      return `Unknown argument${issue.keys.length > 1 ? 's' : ''} ${keys}; ${takes}.`;
    },
  });
}
