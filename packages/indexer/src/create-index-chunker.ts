import { createChunker, createWordPieceCounter, estimateTokens, type Chunker, type TokenCounter } from '@monorag/chunker';
import type { Embedder, EmbedderInfo } from '@monorag/embedder-client';
import type { Logger } from '@monorag/shared';

/**
 * The chunker for indexing with `embedder`'s model: chunks of at most `info.maxSeqLength` word pieces
 * ([CLS] and [SEP] included), counted exactly with the model's WordPiece vocabulary (`GET /vocab`), or
 * with `estimateTokens` when the server has none (another tokenizer, the fake model, an older server).
 * @throws MonoragError `EMBEDDER_UNAVAILABLE` when the server cannot be reached
 */
export async function createIndexChunker(embedder: Embedder, info: EmbedderInfo, logger?: Logger): Promise<Chunker> {
  const counter = await createIndexTokenCounter(embedder, info, logger);
  return createChunker({ maxTokens: info.maxSeqLength, countTokens: counter.count, counterId: counter.id });
}

/** A token counter and its name for `ChunkerOptions.counterId`. */
export interface IndexTokenCounter {
  count: TokenCounter;
  /** `wordpiece-<vocabulary size>` or `estimate`. */
  id: string;
}

/**
 * The token counter of {@link createIndexChunker}: exact WordPiece counts from the server's vocabulary,
 * or `estimateTokens` when it has none.
 * @throws MonoragError `EMBEDDER_UNAVAILABLE` when the server cannot be reached
 */
export async function createIndexTokenCounter(embedder: Embedder, info: EmbedderInfo, logger?: Logger): Promise<IndexTokenCounter> {
  const vocabulary = await embedder.vocabulary?.();
  if (!vocabulary) {
    logger?.info({ model: info.model }, 'the embedding server has no WordPiece vocabulary; chunk sizes are estimated');
    return { count: estimateTokens, id: 'estimate' };
  }
  return { count: createWordPieceCounter(vocabulary), id: `wordpiece-${vocabulary.length}` };
}
