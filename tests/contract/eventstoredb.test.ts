import { testEnvironment } from "../support/environment.ts";
import { eventStoreDbSetup } from "./eventstoredb-fixture.ts";
import { describeEventStoreContract } from "./event-store.contract.ts";

describeEventStoreContract("EventStoreDB", eventStoreDbSetup({ EVENTSTORE_URL: testEnvironment.eventStoreUrl }));
