import { eventStoreOnClient } from "../../src/eventstore/eventstoredb/event-store.ts";
import { FakeServer, MAX_APPEND_SIZE } from "../eventstore/fake-eventstoredb-client.ts";
import { describeEventStoreContract } from "./event-store.contract.ts";

// The fake that CI runs the EventStoreDB adapter on must keep the contract the live server keeps.
describeEventStoreContract("EventStoreDB (fake server)", async () => ({
  store: eventStoreOnClient(new FakeServer().asClient()),
  eventIdsUniqueIn: "stream",
  maxAppendSize: MAX_APPEND_SIZE,
  close: async () => {},
}));
