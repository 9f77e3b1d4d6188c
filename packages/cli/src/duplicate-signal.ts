/**
 * How long after the first SIGINT/SIGTERM another one counts as the same request, in ms: 2 s. A
 * Ctrl-C in a terminal signals the whole process group, and `pnpm monorag` / tsx relay it to the CLI
 * again (tsx after 30 ms without an answer), so the CLI often hears one keypress twice, moments apart;
 * a group-wide SIGTERM (`kill -TERM -<pgid>`) reaches it twice the same way. A signal after this
 * interval is a user insisting, and stops the process at once.
 */
export const DUPLICATE_SIGNAL_MS = 2_000;
