// The embeddings settings are read with the rest of the environment (config.ts), the ground
// floor below knowledge/: config must not import upward. The names stay importable from here.
export type { EmbeddingsConfig, EmbeddingsTuning } from '../../config.js';
