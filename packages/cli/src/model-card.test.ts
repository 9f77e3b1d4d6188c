import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MODEL_CARD_FILE, readModelCard, sameModel, writeModelCard, type ModelCard } from './model-card.js';

const card: ModelCard = { python: 'default', info: { model: 'm', dim: 384, maxSeqLength: 256 }, vocabulary: ['[PAD]', 'a'] };

describe('model card', () => {
  it('round-trips for its interpreter only, and ignores a torn or foreign file', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'monorag-card-'));
    expect(readModelCard(dir, 'default')).toBeUndefined();
    writeModelCard(dir, card);
    expect(readModelCard(dir, 'default')).toEqual(card);
    expect(readModelCard(dir, '/usr/bin/python3')).toBeUndefined();
    writeFileSync(path.join(dir, MODEL_CARD_FILE), '{"python": "default", "info": {"mod');
    expect(readModelCard(dir, 'default')).toBeUndefined();
    writeFileSync(path.join(dir, MODEL_CARD_FILE), JSON.stringify({ ...card, info: { model: 'm', dim: '384', maxSeqLength: 256 } }));
    expect(readModelCard(dir, 'default')).toBeUndefined();
  });

  it('tells a changed model apart by id, dimension, sequence length or vocabulary size', () => {
    expect(sameModel(card, { ...card })).toBe(true);
    expect(sameModel(card, { ...card, info: { ...card.info, model: 'n' } })).toBe(false);
    expect(sameModel(card, { ...card, info: { ...card.info, dim: 768 } })).toBe(false);
    expect(sameModel(card, { ...card, info: { ...card.info, maxSeqLength: 512 } })).toBe(false);
    expect(sameModel(card, { ...card, vocabulary: null })).toBe(false);
  });
});
