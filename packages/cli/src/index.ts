// Public surface of @monorag/cli: the programmatic entry point (the `monorag` bin wraps it).
export { main } from './main.js';
export { createProgram } from './program.js';
