// Public surface of @monorag/mcp: named exports only.
export { createMcpServer, type McpServerOptions } from './mcp-server.js';
export { fenceCode } from './fence.js';
export { directoryCount } from './directory-count.js';
export { createTrackedTransport, type TrackedTransport } from './tracked-transport.js';
export { SKIPPED_LISTED, type IndexControl, type IndexRunSummary, type IndexStatus } from './index-control.js';
export { createStdioTransport, type StdioTransport, type StdioTransportOptions } from './stdio-transport.js';
export { checkMessage, parseMessage, type MessageCheck, type RejectedMessage } from './check-message.js';
