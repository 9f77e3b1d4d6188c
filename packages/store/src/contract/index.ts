// Public surface of @monorag/store/contract (test-only: imports vitest): named exports only.
export {
  CONTRACT_IDENTITY,
  describeChunkStoreContract,
  type ContractStoreHandle,
  type OpenContractStore,
} from './chunk-store-contract.js';
export { cosine, deterministicVector, testChunk, testFile, type TestChunkInput } from './fixtures.js';
