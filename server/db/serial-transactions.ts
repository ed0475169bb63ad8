// Prisma's query interpreter loads a query's relations side by side (Promise.all over a "join" node's children).
// Outside a transaction each query takes a pooled connection of its own; inside one they all reach the
// transaction's single pg client, which queues them and warns "Calling client.query() when the client is already
// executing a query is deprecated" (an error from pg 9). An `include` of three relations in a transaction (the
// registry's definition sync on every start) was enough. Until Prisma serialises them itself (prisma/orm#29979),
// a transaction's statements run here one at a time, in the order they were issued.
import type { SqlDriverAdapterFactory, Transaction } from "@prisma/driver-adapter-utils";

export function withSerialTransactions(factory: SqlDriverAdapterFactory): SqlDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    async connect() {
      const adapter = await factory.connect();
      const start = adapter.startTransaction.bind(adapter);
      adapter.startTransaction = async (isolationLevel) => inTurn(await start(isolationLevel));
      return adapter;
    },
  };
}

/** The same transaction, its statements (savepoints included: they go through executeRaw) chained. */
function inTurn(tx: Transaction): Transaction {
  let tail: Promise<unknown> = Promise.resolve();
  const next = <T>(run: () => Promise<T>): Promise<T> => {
    const result = tail.then(run, run);
    tail = result.catch(() => undefined);
    return result;
  };
  const queryRaw = tx.queryRaw.bind(tx);
  const executeRaw = tx.executeRaw.bind(tx);
  tx.queryRaw = (query) => next(() => queryRaw(query));
  tx.executeRaw = (query) => next(() => executeRaw(query));
  return tx;
}
