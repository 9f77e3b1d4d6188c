// Public surface of @monorag/gateway: named exports only.
export { createGatewayApp, type GatewayApp, type GatewayOptions } from './create-gateway-app.js';
export { startGateway, type RunningGateway, type StartGatewayOptions } from './start-gateway.js';
export { checkBindSafety, isLoopbackHost, type BindSafetyOptions } from './bind-safety.js';
export type { HealthProbes, ProbeResult } from './health-route.js';
export type { HttpErrorBody, HttpErrorCode } from './http-error.js';
export type { GatewayMetrics } from './gateway-metrics.js';
export type { McpSessions } from './mcp-sessions.js';
