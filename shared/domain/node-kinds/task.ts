/**
 * TASK: a task of a process, placed on its diagram (spec §2.3): where it sits and how large it is (integers,
 * diagram units), the order of the tasks, and, for a task imported from BPMN, the element it came from.
 */
import * as z from 'zod/mini';
import { defineKind } from './kind.ts';

/** Diagram coordinates and sizes: integers, in a range any modelling tool's canvas fits in. */
/** The range a diagram's coordinates (task corners, edge ends) and a task's width and height keep. */
export const COORDINATE_RANGE = { min: -1_000_000, max: 1_000_000 } as const;
export const EXTENT_RANGE = { min: 1, max: 100_000 } as const;
export const coordinateSchema = z.int().check(z.gte(COORDINATE_RANGE.min), z.lte(COORDINATE_RANGE.max));
export const extentSchema = z.int().check(z.gte(EXTENT_RANGE.min), z.lte(EXTENT_RANGE.max));
export const sequenceNumberSchema = z.int().check(z.gte(0), z.lte(1_000_000));

/** The BPMN element types a task can be (imported as, exported as). */
export const BPMN_TASK_KINDS = [
  'bpmn:Task',
  'bpmn:UserTask',
  'bpmn:ServiceTask',
  'bpmn:ManualTask',
  'bpmn:ScriptTask',
  'bpmn:BusinessRuleTask',
  'bpmn:SendTask',
  'bpmn:ReceiveTask',
] as const;

const geometry = {
  sequenceNumber: sequenceNumberSchema,
  topLeftX: coordinateSchema,
  topLeftY: coordinateSchema,
  width: extentSchema,
  height: extentSchema,
};

export const TASK = defineKind({
  stored: z.object({
    sequenceNumber: z._default(z.int(), 0),
    topLeftX: z._default(z.int(), 0),
    topLeftY: z._default(z.int(), 0),
    width: z._default(z.int(), 100),
    height: z._default(z.int(), 80),
    /** The BPMN type it is exported as (absent: bpmn:Task). */
    bpmnKind: z._default(z.nullable(z.enum(BPMN_TASK_KINDS)), null),
    /** The id of the BPMN element it was imported from, kept so an export gives the same id back. */
    bpmnElementId: z._default(z.nullable(z.string()), null),
  }),
  payloadShape: Object.fromEntries(
    Object.entries(geometry).map(([name, schema]) => [name, z.optional(schema)]),
  ),
  viewShape: {
    ...Object.fromEntries(Object.entries(geometry).map(([name, schema]) => [name, z.optional(schema)])),
    bpmnKind: z.optional(z.nullable(z.enum(BPMN_TASK_KINDS))),
  },
  view: ({ sequenceNumber, topLeftX, topLeftY, width, height, bpmnKind }) => ({
    sequenceNumber,
    topLeftX,
    topLeftY,
    width,
    height,
    bpmnKind,
  }),
});

export type TaskFields = {
  sequenceNumber: number;
  topLeftX: number;
  topLeftY: number;
  width: number;
  height: number;
  bpmnKind: (typeof BPMN_TASK_KINDS)[number] | null;
  bpmnElementId: string | null;
};

export const taskFieldsOf = (fields: Record<string, unknown>) => TASK.read(fields) as TaskFields;
