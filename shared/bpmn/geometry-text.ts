/**
 * The diagram's coordinates and sizes as the file writes them. bpmn-moddle reads a `dc:Bounds` or
 * `di:waypoint` coordinate with parseFloat, which takes the number a text starts with (`12abc` is 12,
 * `0x10` is 0, `1,5` is 1) and keeps nothing of what it passed over; so the text is judged here, from the
 * markup, before the parser reads it as a number.
 */
import { bpmnRefusal } from './bpmn-refusals.ts';
import { attributeValue, scanMarkup, tagAttributes, tagName } from './xml-markup.ts';

const BPMNDI = 'http://www.omg.org/spec/BPMN/20100524/DI';
const DC = 'http://www.omg.org/spec/DD/20100524/DC';
const DI = 'http://www.omg.org/spec/DD/20100524/DI';
const XML = 'http://www.w3.org/XML/1998/namespace';

/**
 * A finite xsd:double as XML Schema writes one: an optional sign, digits with an optional fraction, an
 * optional exponent (`12`, `-0.5`, `.5`, `5.`, `1.5E2`). XML Schema's INF, -INF and NaN are doubles too,
 * but no coordinate or size, and are refused like any other text.
 */
const FINITE_DOUBLE = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

/** XML Schema collapses the whitespace around a double (whiteSpace="collapse"): only XML's four count. */
const AROUND = /^[ \t\n\r]+|[ \t\n\r]+$/g;

/**
 * The refusal of a drawing's coordinate or size: `drawing` names the shape, edge or label, `part` the
 * bounds or waypoint, `written` the value as the file writes it, when there is one to show.
 */
export function geometryRefusal(drawing: string, part: string, attribute: string, written?: string) {
  const shown = written === undefined ? '' : ` (${JSON.stringify(written.slice(0, 40))})`;
  return bpmnRefusal(
    'bpmn_geometry',
    `has ${drawing} whose ${part} has ${attribute === 'x' ? 'an' : 'a'} ${attribute} that is not a finite ` +
      `number${shown}; coordinates and sizes are written as XML Schema writes a double, such as 12, -0.5 or 1.5E2`,
  );
}

interface OpenElement {
  /** The namespaces it declares, by prefix ('' for the default namespace). */
  declared: Map<string, string> | undefined;
  namespace: string | undefined;
  local: string;
  /** Of the diagram's elements only (where the namespace is one of the three above). */
  attributes: Map<string, string> | undefined;
  /** How many waypoints it has had so far. */
  waypoints: number;
}

/** A drawing as the refusals name it: `bpmndi:BPMNShape Shape_1 (of Task_1)`. */
function nameOf(drawing: OpenElement | undefined): string {
  if (!drawing) return 'a drawing';
  const written = (attribute: string) => {
    const value = drawing.attributes?.get(attribute);
    return value === undefined ? undefined : attributeValue(value);
  };
  const type = drawing.namespace === BPMNDI ? `bpmndi:${drawing.local}` : drawing.local;
  const element = written('bpmnElement');
  return `${type} ${written('id') ?? '(without id)'}${element ? ` (of ${element})` : ''}`;
}

/**
 * Refuses (rule bpmn_geometry) a `dc:Bounds` x, y, width or height, or a `di:waypoint` x or y, whose text
 * is not a finite xsd:double, naming the drawing and the attribute. A missing attribute is no concern here.
 */
export function refuseMalformedGeometry(xml: string): void {
  const open: OpenElement[] = [];
  const resolve = (prefix: string) => {
    if (prefix === 'xml') return XML;
    for (let at = open.length - 1; at >= 0; at -= 1) {
      const uri = open[at]?.declared?.get(prefix);
      if (uri !== undefined) return uri;
    }
    return undefined;
  };
  scanMarkup(xml, (kind, from, to) => {
    if (kind === 'end') open.pop();
    if (kind !== 'start' && kind !== 'empty') return;
    const tag = xml.slice(from, to);
    const name = tagName(tag);
    const colon = name.indexOf(':');
    let attributes = tag.includes('xmlns') ? tagAttributes(tag) : undefined;
    let declared: Map<string, string> | undefined;
    for (const [attribute, value] of attributes ?? []) {
      if (attribute === 'xmlns' || attribute.startsWith('xmlns:')) {
        declared ??= new Map();
        declared.set(attribute.slice(6), attributeValue(value));
      }
    }
    const element: OpenElement = {
      declared,
      namespace: undefined,
      local: name.slice(colon + 1),
      attributes,
      waypoints: 0,
    };
    open.push(element);
    // Known once the element's own declarations are in scope.
    element.namespace = resolve(colon === -1 ? '' : name.slice(0, colon));
    if (element.namespace === BPMNDI || element.namespace === DC || element.namespace === DI) {
      attributes ??= tagAttributes(tag);
      element.attributes = attributes;
    }
    const parent = open[open.length - 2];
    const check = (part: string, drawing: OpenElement | undefined, names: readonly string[]) => {
      for (const attribute of names) {
        const written = attributes?.get(attribute);
        if (written === undefined) continue;
        const value = attributeValue(written).replace(AROUND, '');
        if (!FINITE_DOUBLE.test(value) || !Number.isFinite(Number(value))) {
          throw geometryRefusal(nameOf(drawing), part, attribute, written);
        }
      }
    };
    if (element.namespace === DC && element.local === 'Bounds') {
      const ofLabel = parent?.namespace === BPMNDI && parent.local === 'BPMNLabel';
      check(ofLabel ? "label's dc:Bounds" : 'dc:Bounds', ofLabel ? open[open.length - 3] : parent, [
        'x',
        'y',
        'width',
        'height',
      ]);
    }
    if (element.namespace === DI && element.local === 'waypoint' && parent) {
      parent.waypoints += 1;
      check(`di:waypoint ${parent.waypoints}`, parent, ['x', 'y']);
    }
    if (kind === 'empty') open.pop();
  });
}
