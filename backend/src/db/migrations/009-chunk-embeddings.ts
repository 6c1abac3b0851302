/**
 * Chunk vectors (ADR 085): one row per chunk and embedding model, so a change of model re-embeds beside the old
 * vectors, which are dropped once every chunk has a new one. The column starts as real[], searched in process;
 * where pgvector can be enabled, the backend converts it to pgvector's type at start (vectors/vector-store.ts).
 * `seq` orders additions, so a process holding vectors in memory reads only what is new.
 */
export const sql = /* sql */ `
CREATE TABLE chunk_embeddings (
  chunk_id    integer NOT NULL REFERENCES chunks (id) ON DELETE CASCADE,
  model       text NOT NULL,
  seq         bigserial NOT NULL,
  embedding   real[] NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chunk_id, model)
);
CREATE INDEX chunk_embeddings_model_seq_idx ON chunk_embeddings (model, seq);
`
