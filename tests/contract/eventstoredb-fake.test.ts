import { eventStoreOnClient } from "../../src/eventstore/eventstoredb/event-store.ts";
import { FakeServer, MAX_APPEND_SIZE, type ServerRelease } from "../eventstore/fake-eventstoredb-client.ts";
import { describeEventStoreContract } from "./event-store.contract.ts";

// The fake that CI runs the EventStoreDB adapter on must keep the contract the live servers keep:
// one append a call on EventStoreDB 24.10; grouped requests on KurrentDB, `multiStreamAppend`
// (naming the first stream at a wrong revision) from 25.1, `appendRecords` (naming every one) on 26.1.
for (const release of ["EventStoreDB 24.10", "KurrentDB 25.1", "KurrentDB 26.1"] satisfies ServerRelease[]) {
  describeEventStoreContract(`${release} (fake server)`, async () => ({
    store: eventStoreOnClient(new FakeServer(release).asClient()),
    eventIdsUniqueIn: "stream",
    maxAppendSize: MAX_APPEND_SIZE,
    close: async () => {},
  }));
}
