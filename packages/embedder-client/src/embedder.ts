/** What an embedding server reports about its model (`GET /info`). */
export interface EmbedderInfo {
  /** Model id, e.g. `sentence-transformers/all-MiniLM-L6-v2`. Part of the index identity. */
  model: string;
  /** Embedding dimension. */
  dim: number;
  /** Maximum input length in the model's word-piece tokens; text past it is not seen by the vector. */
  maxSeqLength: number;
}

/** Turns texts into L2-normalised dense vectors. */
export interface Embedder {
  /** Model id, dimension and maximum sequence length. */
  info(): Promise<EmbedderInfo>;
  /**
   * Embeds `texts` in order; returns one vector of length `info().dim` per text.
   * @throws MonoragError `EMBEDDER_UNAVAILABLE` when the server cannot be reached or fails.
   */
  embed(texts: string[]): Promise<Float32Array[]>;
  /**
   * The model's uncased BERT WordPiece vocabulary by token id (vocab.txt lines; 30,522 for
   * all-MiniLM-L6-v2), for exact token counts (`createWordPieceCounter` of `@monorag/chunker`), or
   * undefined when the model has none (another tokenizer, a fake model, an older server). Optional:
   * an embedder without it is treated as having none.
   * @throws MonoragError `EMBEDDER_UNAVAILABLE` when the server cannot be reached or answers garbage.
   */
  vocabulary?(): Promise<readonly string[] | undefined>;
  /**
   * One cheap check that the server answers (`GET /health`, with a short time-out; no embedding), for a
   * caller waiting out an outage: true when it does. A true answer also ends an open circuit's
   * cool-down, so the next request goes out at once as its trial. Never rejects. Optional: an embedder
   * without it (in process, or one restarted on demand) is not probed.
   */
  probe?(): Promise<boolean>;
}
