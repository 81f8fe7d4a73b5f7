-- The ids each write touched, for the last CHANGE_LOG_GENERATIONS generations: a
-- replica's ranking index re-reads those candidates instead of every holder.

CREATE TABLE changes (
    tenant text NOT NULL,
    generation bigint NOT NULL,
    id text NOT NULL,
    PRIMARY KEY (tenant, generation, id)
);
