// Route templates ('/petstore/v1/pets/{petId}') matched segment by segment; a path that matches
// with another method is a 405 with Allow, no match at all a 404.
import type { Handler } from './context.ts';

export interface Route {
  method: string;
  template: string;
  handler: Handler;
}

interface CompiledTemplate {
  template: string;
  segments: string[];
  methods: Map<string, Handler>;
}

export type Match =
  | { kind: 'found'; template: string; handler: Handler; params: Record<string, string> }
  | { kind: 'wrong-method'; template: string; allow: string[] }
  | { kind: 'none' };

export class Router {
  #templates: CompiledTemplate[] = [];

  constructor(routes: readonly Route[]) {
    for (const route of routes) {
      let compiled = this.#templates.find((t) => t.template === route.template);
      if (!compiled) {
        compiled = { template: route.template, segments: route.template.split('/'), methods: new Map() };
        this.#templates.push(compiled);
      }
      compiled.methods.set(route.method, route.handler);
    }
  }

  match(method: string, path: string): Match {
    const segments = path.split('/');
    for (const t of this.#templates) {
      const params = matchSegments(t.segments, segments);
      if (!params) continue;
      const handler = t.methods.get(method);
      if (handler) return { kind: 'found', template: t.template, handler, params };
      return { kind: 'wrong-method', template: t.template, allow: [...t.methods.keys()] };
    }
    return { kind: 'none' };
  }
}

function matchSegments(template: string[], actual: string[]): Record<string, string> | undefined {
  if (template.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < template.length; i++) {
    const t = template[i] ?? '';
    const a = actual[i] ?? '';
    if (t.startsWith('{') && t.endsWith('}')) {
      if (a === '') return undefined;
      let value: string;
      try {
        value = decodeURIComponent(a);
      } catch {
        // A malformed escape is still this route's parameter; its handler refuses the value.
        value = a;
      }
      params[t.slice(1, -1)] = value;
    } else if (t !== a) {
      return undefined;
    }
  }
  return params;
}
