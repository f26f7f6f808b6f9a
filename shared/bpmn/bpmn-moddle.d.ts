/**
 * The part of bpmn-moddle's API this code uses. The package ships types for the BPMN elements but none for
 * its entry point, so TypeScript would otherwise refuse the import. Elements stay `unknown` here: the narrow
 * interfaces in moddle-elements.ts say what is read of them.
 */
declare module 'bpmn-moddle' {
  /** Something the reader skipped or could not resolve; parsing goes on (lax mode). */
  export interface ParseWarning {
    message: string;
    /** The element that holds an unresolved reference or an unknown attribute. */
    element?: unknown;
    property?: string;
    value?: unknown;
    error?: Error;
  }

  export interface ParseResult {
    rootElement: unknown;
    warnings: ParseWarning[];
    elementsById: Record<string, unknown>;
  }

  export interface SerializeOptions {
    format?: boolean;
    preamble?: boolean;
  }

  export class BpmnModdle {
    constructor(packages?: Record<string, unknown>, options?: Record<string, unknown>);
    /** Rejects on XML that is not well-formed or whose root is not bpmn:definitions. */
    fromXML(xml: string, typeName?: string): Promise<ParseResult>;
    toXML(element: unknown, options?: SerializeOptions): Promise<{ xml: string }>;
    /** Throws on a type the meta-model does not know. */
    create(type: string, attrs?: Record<string, unknown>): unknown;
  }
}
