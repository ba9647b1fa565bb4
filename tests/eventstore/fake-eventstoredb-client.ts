import {
  ANY,
  AppendConsistencyViolationError,
  MaxAppendSizeExceededError,
  NO_STREAM,
  STREAM_EXISTS,
  StreamNotFoundError,
  TransactionMaxSizeExceededError,
  DeadlineExceededError,
  UnavailableError,
  UnknownError,
  UnsupportedError,
  WrongExpectedVersionError,
  type AppendRecordInput,
  type AppendRecordsResult,
  type AppendStreamRequest,
  type AppendStreamState,
  type ConsistencyCheck,
  type EventData,
  type ReadStreamOptions as ClientReadStreamOptions,
  type AllStreamResolvedEvent,
  type AppendResult as ClientAppendResult,
  type KurrentDBClient,
  type ReadAllOptions as ClientReadAllOptions,
} from "@kurrent/kurrentdb-client";
// The client's own translation of a failed gRPC call, so a fault is the error the client throws.
import { convertToCommandError } from "@kurrent/kurrentdb-client/dist/utils/CommandError.js";

/** The client types revisions and positions as bigint; these tests also feed the numbers that arrive at runtime. */
export const asBigInt = (value: number): bigint => value as unknown as bigint;

export interface EventSpec {
  n: number;
  streamId?: string;
  type?: string;
  isJson?: boolean;
  data?: unknown;
  metadata?: unknown;
  numeric?: boolean;
}

/** A resolved $all event at commit = prepare = n * 100, revision n - 1. */
export function resolved({ n, streamId = "payment-1", type = "PaymentAuthorized.v1", isJson = true, data = { n }, metadata, numeric = false }: EventSpec): AllStreamResolvedEvent {
  const num = (value: number): bigint => (numeric ? asBigInt(value) : BigInt(value));
  const event = {
    streamId,
    id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
    isJson,
    revision: num(n - 1),
    type,
    created: new Date(1_700_000_000_000 + n),
    data,
    metadata,
    position: { commit: num(n * 100), prepare: num(n * 100) },
  };
  return { event: event as AllStreamResolvedEvent["event"], commitPosition: num(n * 100) };
}

/** The system records a live server writes into $all between application events. */
export const systemRecords = {
  /** Stream metadata, e.g. a max-age set on a payment stream. */
  metadata: (n: number) => resolved({ n, streamId: "$$payment-1", type: "$metadata" }),
  /** A link written by the $by_category system projection. */
  link: (n: number) => resolved({ n, streamId: "$ce-payment", type: "$>", isJson: false, data: new Uint8Array([48]) }),
  /** The node's periodic statistics. */
  stats: (n: number) => resolved({ n, streamId: "$stats-127.0.0.1:2113", type: "$statsCollected" }),
};

const commitOf = (record: AllStreamResolvedEvent): bigint => BigInt(record.event?.position.commit ?? 0n);

/** A failed gRPC call as the client reports it: the status code, and the server's `exception` header when it sends one. */
function grpcFailure(code: number, details: string, headers: Record<string, string> = {}): Error {
  const failure = Object.assign(new Error(`${code} ${details}`), { code, details, metadata: { getMap: () => headers, get: (key: string) => (key in headers ? [headers[key]] : []) } });
  return convertToCommandError(failure as never) as Error;
}

/**
 * What a node answers a batch append (the client's `appendToStream`) while it cannot write: the
 * client does not recognise the status in the answer and reports UnknownError "Could not
 * recognize …" (seen live during a leader change of EventStoreDB 24.10).
 */
const unrecognisedAnswer = (message: string) => () => new UnknownError(undefined, `Could not recognize ${message}`);

/** Every failure a live server's leader change was seen or is known to raise through the client. */
export const serverFaults = {
  /** The node is down or the connection was lost (as a failover showed: `14 UNAVAILABLE: read ECONNRESET`). */
  unavailable: () => grpcFailure(14, "read ECONNRESET"),
  /** A follower was asked to write; it names the leader. */
  notLeader: () =>
    grpcFailure(5, "Leader info available", { exception: "not-leader", "leader-endpoint-host": "127.0.0.1", "leader-endpoint-port": "2113" }),
  /** No answer within the client's deadline (10 s by default). */
  deadlineExceeded: () => grpcFailure(4, "Deadline exceeded"),
  /** A node still electing, or starting: a unary call's answer (gRPC 14), as a grouped append gets it. */
  serverNotReady: () => grpcFailure(14, "Server Is Not Ready"),
  /** The same answer inside a batch append's response, which the client does not recognise. */
  serverNotReadyInBatchAppend: unrecognisedAnswer("Server Is Not Ready"),
  serverBusyInBatchAppend: unrecognisedAnswer("Server Is Busy"),
  /** A follower that knows no leader yet, in a batch append's response. */
  noLeaderInBatchAppend: unrecognisedAnswer("No leader info available in response"),
  /** A write the node could not commit in time (the batch append's Timeout status, which carries no message). */
  commitTimeoutInBatchAppend: () => new DeadlineExceededError(),
  /** The server gave the call up (gRPC 10 without details): the client's TimeoutError. */
  aborted: () => grpcFailure(10, "Operation timed out"),
  /** The server cancelled the call, e.g. a node shutting down. */
  cancelled: () => grpcFailure(1, "Cancelled on server"),
  /** No node of the cluster answered the client's gossip: all down, or no leader yet. */
  discoveryFailed: () => new Error("Failed to discover after 10 attempts."),
  /**
   * The node is down when the client reconnects: its first call, which asks the server what it
   * supports, fails with the raw gRPC error, unconverted (seen live after a kill -9).
   */
  unavailableOnReconnect: () =>
    Object.assign(new Error("14 UNAVAILABLE: No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:2113."), {
      code: 14,
      details: "No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:2113.",
      metadata: { getMap: () => ({}) },
    }),
} satisfies Record<string, () => Error>;

export type ServerFault = () => Error;

/** The live server's default maximum append size (`MaxAppendSize`): 1 MiB. */
export const MAX_APPEND_SIZE = 1_048_576;

/** What the server counts of an append against its maximum: every event's data and metadata, in bytes. */
function appendSize(events: readonly EventData[]): number {
  const bytes = (value: unknown) =>
    value === undefined ? 0 : value instanceof Uint8Array ? value.byteLength : Buffer.byteLength(JSON.stringify(value));
  return events.reduce((total, event) => total + bytes(event.data) + bytes(event.metadata), 0);
}

/** Metadata as the client reads it back: the server keeps bytes, which the client parses as JSON when it can. */
function asReadBack(metadata: EventData["metadata"]): unknown {
  if (!(metadata instanceof Uint8Array)) return metadata;
  try {
    return JSON.parse(Buffer.from(metadata).toString("utf8"));
  } catch {
    return metadata;
  }
}

/** As the live server does: an append over its maximum size is refused whole. */
function refuseOversized(events: readonly EventData[], maxAppendSize: number): void {
  if (appendSize(events) > maxAppendSize) throw MaxAppendSizeExceededError.fromMaxAppendSize(maxAppendSize);
}

/** A gRPC failure as the client hands it on when it has no error of its own for it (UNIMPLEMENTED, INVALID_ARGUMENT). */
function rawGrpcFailure(code: number, details: string): Error {
  return Object.assign(new Error(`${code} ${details}`), { code, details, metadata: { getMap: () => ({}) } });
}

/** Just enough of KurrentDBClient, over an in-memory $all log. */
export class FakeClient {
  /** Every read of $all, as the client was asked for it. */
  readonly readsOfAll: ClientReadAllOptions[] = [];
  readonly appends: unknown[][] = [];
  appendResult: () => Promise<ClientAppendResult> = async () => ({ success: true, nextExpectedRevision: 0n });
  streams = new Map<string, AllStreamResolvedEvent[]>();
  /** Failures the next calls meet, one each, before they reach the log. */
  readonly faults: ServerFault[] = [];
  /** The server's `MaxAppendSize` setting, in bytes. */
  maxAppendSize = MAX_APPEND_SIZE;
  /** While set, the node is down: every call fails with it. */
  #outage: ServerFault | null = null;
  /**
   * Whether this client's reads are stuck, as the live client's native bridge is when its first
   * connection failed: every read unavailable, the server up or not, for the client's life.
   */
  bridgeStuck = false;

  constructor(
    public log: AllStreamResolvedEvent[] = [],
    /** Whether a backwards read from a position includes the event at it (the server's choice is not documented). */
    private readonly backwardsInclusive = false,
  ) {}

  /** The node goes down (its log kept, as on disk): every call fails with `fault` until `restart`. */
  stop(fault: ServerFault = serverFaults.unavailable): void {
    this.#outage = fault;
  }

  restart(): void {
    this.#outage = null;
  }

  /** Throws what a call meets now: the outage, else the next queued fault. */
  protected meetFault(): void {
    const fault = this.#outage ?? this.faults.shift();
    if (fault) throw fault();
  }

  /** What a read meets: a stuck bridge's answer, else what any call meets. */
  protected meetReadFault(): void {
    if (this.bridgeStuck) throw new UnavailableError();
    this.meetFault();
  }

  /** A record written to $all now, as by another process. */
  write(record: AllStreamResolvedEvent): void {
    this.log.push(record);
  }

  readAll(options: ClientReadAllOptions = {}) {
    const { fromPosition = "start", maxCount = Number.MAX_SAFE_INTEGER, direction = "forwards" } = options;
    this.readsOfAll.push(options);
    const log = this.log;
    const inclusive = this.backwardsInclusive;
    const meetFault = () => this.meetReadFault();
    return (async function* () {
      // As the client does, a failed read reports while it is iterated.
      meetFault();
      let page: AllStreamResolvedEvent[];
      if (direction === "forwards") {
        // As KurrentDB 26.1 answers a read from inside the log where no record begins.
        if (typeof fromPosition === "object" && !log.some((event) => commitOf(event) === BigInt(fromPosition.commit)) && log.some((event) => commitOf(event) > BigInt(fromPosition.commit))) {
          throw new UnavailableError();
        }
        page = fromPosition === "start" ? log : fromPosition === "end" ? [] : log.filter((event) => commitOf(event) >= BigInt(fromPosition.commit));
      } else {
        const before =
          fromPosition === "end" || fromPosition === "start"
            ? fromPosition === "end" ? log : []
            : log.filter((event) => (inclusive ? commitOf(event) <= BigInt(fromPosition.commit) : commitOf(event) < BigInt(fromPosition.commit)));
        page = [...before].reverse();
      }
      yield* page.slice(0, Number(maxCount));
    })();
  }

  readStream(streamId: string) {
    const events = this.streams.get(streamId);
    const meetFault = () => this.meetReadFault();
    return (async function* () {
      meetFault();
      if (!events) throw new StreamNotFoundError(undefined, streamId);
      yield* events;
    })();
  }

  async appendToStream(...args: unknown[]): Promise<ClientAppendResult> {
    const [, events] = args as [string, EventData | EventData[]];
    this.meetFault();
    refuseOversized(Array.isArray(events) ? events : [events], this.maxAppendSize);
    this.appends.push(args);
    return this.appendResult();
  }

  /** EventStoreDB 24.10 has no call for appends to several streams: the client, which asks the server's features, refuses it. */
  async appendRecords(..._args: unknown[]): Promise<AppendRecordsResult> {
    throw new UnsupportedError("appendRecords", "26.1");
  }

  async multiStreamAppend(..._args: unknown[]): Promise<AppendRecordsResult> {
    throw new UnsupportedError("multiStreamAppend", "25.1");
  }

  async dispose(): Promise<void> {}

  asClient(): KurrentDBClient {
    return this as unknown as KurrentDBClient;
  }
}

/**
 * Where the stream holds these events already, written by an append at this expectation: the
 * revision of the last of them. The live server answers such an append with that revision and
 * writes nothing (event ids are recognised within one stream only).
 */
function alreadyWritten(stream: readonly AllStreamResolvedEvent[], events: readonly EventData[], expected: AppendStreamState): bigint | null {
  const first = stream.findIndex((record) => record.event?.id === events[0]?.id);
  if (first < 0 || !events.every((event, index) => stream[first + index]?.event?.id === event.id)) return null;
  const fits = expected === ANY || expected === STREAM_EXISTS || (expected === NO_STREAM ? first === 0 : BigInt(expected) + 1n === BigInt(first));
  return fits ? BigInt(first + events.length - 1) : null;
}

/** Which server the fake plays: the calls for appends to several streams in one request that it takes. */
export type ServerRelease = "EventStoreDB 24.10" | "KurrentDB 25.1" | "KurrentDB 26.1";

const GROUPED_CALLS: Record<ServerRelease, ReadonlySet<"appendRecords" | "multiStreamAppend">> = {
  "EventStoreDB 24.10": new Set(),
  "KurrentDB 25.1": new Set(["multiStreamAppend"]),
  "KurrentDB 26.1": new Set(["multiStreamAppend", "appendRecords"]),
};

/** A stream's state as a grouped append's check or violation writes it: -1 no stream, -2 any, -4 stream exists. */
function stateText(state: AppendStreamState | bigint | "no_stream"): string {
  if (state === NO_STREAM) return "-1";
  if (state === ANY) return "-2";
  if (state === STREAM_EXISTS) return "-4";
  return String(state);
}

/** As the client does before a grouped append: its metadata is a plain object of string values. */
function refuseNonStringProperties(events: readonly EventData[]): void {
  for (const { metadata } of events) {
    if (metadata === undefined) continue;
    if (metadata instanceof Uint8Array || typeof metadata !== "object" || Array.isArray(metadata) || Object.values(metadata).some((value) => typeof value !== "string")) {
      throw new Error("appendRecords requires metadata to be a plain object with string keys and string values.");
    }
  }
}

/**
 * A server in memory: appends are kept in their streams and in $all (checked against the expected
 * revision and the maximum append size, as the live server does) and read back, so the adapter can
 * run the service's commands over it. `stop` and `restart` take it down and up with its log kept;
 * `faults` and `lostAnswers` are what calls meet meanwhile.
 */
export class FakeServer extends FakeClient {
  #commit = 0n;
  /** Failures the next appends meet once written: the client never hears that they landed. */
  readonly lostAnswers: ServerFault[] = [];
  /** How many requests each grouped call was sent (the probe for the call included). */
  readonly groupedRequests = { appendRecords: 0, multiStreamAppend: 0 };
  /**
   * Whether the client is connected to a follower during an election, as after a leader change:
   * the follower holds a v1 append until its timeout (it forwards it to a leader not there yet),
   * answers one that requires the leader not-leader (the client then connects to the leader it
   * names), and refuses a grouped append with KurrentDB's own not-leader answer, which the client
   * neither recognises nor reconnects on.
   */
  onFollower = false;

  constructor(readonly release: ServerRelease = "EventStoreDB 24.10") {
    super();
  }

  /**
   * KurrentDB 26.1's `appendRecords`: every check is evaluated first, and any violation refuses the
   * whole request, naming every violated stream; the records land in the order given, all or none,
   * under one commit position. As the live server, a stream's events sent again at the same
   * expectation are recognised and not written twice.
   */
  override async appendRecords(records: AppendRecordInput[], checks: ConsistencyCheck[] = []): Promise<AppendRecordsResult> {
    refuseNonStringProperties(records.map(({ record }) => record));
    this.#takeGroupedCall("appendRecords");
    if (records.length === 0) throw rawGrpcFailure(3, "Append records request must contain at least one record.");
    if (new Set(checks.map((check) => check.streamName)).size < checks.length) {
      throw rawGrpcFailure(3, "Each stream can only appear once in consistency checks.");
    }
    const byStream = new Map<string, EventData[]>();
    for (const { streamName, record } of records) byStream.set(streamName, [...(byStream.get(streamName) ?? []), record]);
    const expected = new Map(checks.map((check) => [check.streamName, check.expectedState]));
    const violations = checks.flatMap((check, checkIndex) => {
      const stream = this.streams.get(check.streamName) ?? [];
      const events = byStream.get(check.streamName);
      if (events && alreadyWritten(stream, events, check.expectedState) !== null) return [];
      if (this.#isAt(stream, check.expectedState)) return [];
      const actual = stream.length === 0 ? NO_STREAM : BigInt(stream.length - 1);
      return [{ checkIndex, streamState: { stream: check.streamName, expectedState: stateText(check.expectedState), actualState: stateText(actual) } }];
    });
    if (violations.length > 0) {
      throw new AppendConsistencyViolationError(rawGrpcFailure(9, "Append consistency violation") as never, { violationsList: violations } as never);
    }
    return this.#writeGroup([...byStream].map(([streamName, events]) => ({ streamName, events, expectedState: expected.get(streamName) ?? ANY })));
  }

  /**
   * KurrentDB 25.1's `multiStreamAppend`: all or nothing too, but a violation names only the first
   * stream not at its expected revision, and a stream may come once only.
   */
  override async multiStreamAppend(requests: AppendStreamRequest[]): Promise<AppendRecordsResult> {
    refuseNonStringProperties(requests.flatMap(({ events }) => events));
    this.#takeGroupedCall("multiStreamAppend");
    if (requests.length === 0) throw rawGrpcFailure(3, "An append session must append to at least one stream.");
    if (new Set(requests.map((request) => request.streamName)).size < requests.length) {
      throw rawGrpcFailure(3, "A stream can only appear once in an append session.");
    }
    for (const { streamName, events, expectedState } of requests) {
      const stream = this.streams.get(streamName) ?? [];
      if (alreadyWritten(stream, events, expectedState) !== null || this.#isAt(stream, expectedState)) continue;
      const current = stream.length === 0 ? NO_STREAM : BigInt(stream.length - 1);
      throw new WrongExpectedVersionError(undefined, { streamName, current, expected: expectedState });
    }
    return this.#writeGroup(requests);
  }

  /** Counts the request, or refuses it as the client does where the server lacks the call; then the faults a call meets. */
  #takeGroupedCall(call: "appendRecords" | "multiStreamAppend"): void {
    this.groupedRequests[call] += 1;
    if (!GROUPED_CALLS[this.release].has(call)) throw new UnsupportedError(call, call === "appendRecords" ? "26.1" : "25.1");
    this.meetFault();
    if (this.onFollower) {
      throw new UnknownError(
        rawGrpcFailure(9, "The server is not the leader node and cannot handle the request. Please retry your request against the leader node directly at 127.0.0.1:2113") as never,
      );
    }
  }

  #isAt(stream: readonly AllStreamResolvedEvent[], state: AppendStreamState): boolean {
    const current = stream.length === 0 ? NO_STREAM : BigInt(stream.length - 1);
    return state === ANY || (state === NO_STREAM && stream.length === 0) || (state === STREAM_EXISTS && stream.length > 0) || state === current;
  }

  /**
   * Writes checked requests as one transaction: refused whole over the maximum size, else one
   * commit position. As KurrentDB 26.1, a request whose message (its data in base64) is over
   * 1.5 × the maximum size does not reach the call: gRPC refuses it, RESOURCE_EXHAUSTED.
   */
  #writeGroup(requests: readonly AppendStreamRequest[]): AppendRecordsResult {
    const size = requests.reduce((total, { events }) => total + appendSize(events), 0);
    if ((size * 4) / 3 > 1.5 * this.maxAppendSize) {
      throw new UnknownError(rawGrpcFailure(8, "Received message exceeds the maximum configured message size.") as never);
    }
    if (size > this.maxAppendSize) {
      throw new TransactionMaxSizeExceededError(rawGrpcFailure(10, "Transaction size exceeded") as never, { size, maxSize: this.maxAppendSize } as never);
    }
    const responses = requests.map(({ streamName, events, expectedState }) => {
      const stream = this.streams.get(streamName) ?? [];
      const written = alreadyWritten(stream, events, expectedState);
      if (written === null) this.#append(streamName, events, (event) => ({ ...(event.metadata as object), "$schema.name": event.type, "$schema.format": "Json" }));
      return { streamName, revision: written ?? BigInt(this.streams.get(streamName)!.length - 1) };
    });
    const lostAnswer = this.lostAnswers.shift();
    if (lostAnswer) throw lostAnswer();
    return { position: this.#commit, responses };
  }

  /** The events at the end of their stream and of $all, each at a new commit position. */
  #append(streamId: string, events: readonly EventData[], readBack: (event: EventData) => unknown): void {
    const stream = this.streams.get(streamId) ?? [];
    for (const event of events) {
      this.#commit += 100n;
      const record: AllStreamResolvedEvent = {
        event: {
          streamId,
          id: event.id,
          isJson: event.contentType === "application/json",
          revision: BigInt(stream.length),
          type: event.type,
          created: new Date(),
          data: event.data,
          metadata: readBack(event),
          position: { commit: this.#commit, prepare: this.#commit },
        } as AllStreamResolvedEvent["event"],
        commitPosition: this.#commit,
      };
      stream.push(record);
      this.write(record);
    }
    this.streams.set(streamId, stream);
  }

  override async appendToStream(
    streamId: string,
    events: EventData | EventData[],
    { streamState = ANY, requiresLeader = false }: { streamState?: AppendStreamState; requiresLeader?: boolean } = {},
  ): Promise<ClientAppendResult> {
    const appended = Array.isArray(events) ? events : [events];
    this.meetFault();
    if (this.onFollower) {
      // A follower asked for the leader names it (the client connects there); else it forwards
      // the append to a leader still being elected, and answers its timeout.
      if (!requiresLeader) throw serverFaults.commitTimeoutInBatchAppend();
      this.onFollower = false;
      throw serverFaults.notLeader();
    }
    this.appends.push([streamId, appended, { streamState, requiresLeader }]);
    refuseOversized(appended, this.maxAppendSize);
    const stream = this.streams.get(streamId) ?? [];
    const written = alreadyWritten(stream, appended, streamState);
    // The live server's answer to a resent append carries the revision, not the position.
    if (written !== null) return { success: true, nextExpectedRevision: written };
    const current = stream.length === 0 ? NO_STREAM : BigInt(stream.length - 1);
    const expected =
      streamState === ANY ||
      (streamState === NO_STREAM && stream.length === 0) ||
      (streamState === STREAM_EXISTS && stream.length > 0) ||
      streamState === current;
    if (!expected) throw new WrongExpectedVersionError(undefined, { streamName: streamId, current, expected: streamState });
    this.#append(streamId, appended, (event) => asReadBack(event.metadata));
    const lostAnswer = this.lostAnswers.shift();
    if (lostAnswer) throw lostAnswer();
    return { success: true, nextExpectedRevision: BigInt(this.streams.get(streamId)!.length - 1), position: { commit: this.#commit, prepare: this.#commit } };
  }

  override readStream(streamId: string, { fromRevision = "start", direction = "forwards", maxCount = Number.MAX_SAFE_INTEGER }: ClientReadStreamOptions = {}) {
    const events = this.streams.get(streamId);
    const meetFault = () => this.meetReadFault();
    return (async function* () {
      meetFault();
      if (!events) throw new StreamNotFoundError(undefined, streamId);
      const forwards = direction === "forwards";
      const from = fromRevision === "start" ? 0n : fromRevision === "end" ? BigInt(events.length - 1) : BigInt(fromRevision);
      const inOrder = forwards
        ? events.filter((record) => BigInt(record.event!.revision) >= from)
        : events.filter((record) => BigInt(record.event!.revision) <= from).reverse();
      yield* inOrder.slice(0, Number(maxCount));
    })();
  }
}
