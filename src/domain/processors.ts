/** The processors a payment can go to. Kept apart from the host configurations' schemas so that code without zod (the journal's posting rules the client package carries) can name them. */
export const processors = ["processor_a", "processor_b", "processor_c", "processor_d"] as const;
export type Processor = (typeof processors)[number];
