import { createChunker, createWordPieceCounter, estimateTokens, type Chunker } from '@monorag/chunker';
import type { Embedder, EmbedderInfo } from '@monorag/embedder-client';
import type { Logger } from '@monorag/shared';

/**
 * The chunker for indexing with `embedder`'s model: chunks of at most `info.maxSeqLength` word pieces
 * ([CLS] and [SEP] included), counted exactly with the model's WordPiece vocabulary (`GET /vocab`), or
 * with `estimateTokens` when the server has none (another tokenizer, the fake model, an older server).
 * @throws MonoragError `EMBEDDER_UNAVAILABLE` when the server cannot be reached
 */
export async function createIndexChunker(embedder: Embedder, info: EmbedderInfo, logger?: Logger): Promise<Chunker> {
  const vocabulary = await embedder.vocabulary?.();
  if (!vocabulary) logger?.info({ model: info.model }, 'the embedding server has no WordPiece vocabulary; chunk sizes are estimated');
  const countTokens = vocabulary ? createWordPieceCounter(vocabulary) : estimateTokens;
  return createChunker({ maxTokens: info.maxSeqLength, countTokens });
}
