// Requests counted since start or the last reset (control routes are never counted).
export interface RequestCounts {
  total: number;
  /** "METHOD /route/template", e.g. "GET /petstore/v1/pets/{petId}". */
  byRoute: Record<string, number>;
  tokenRequests: number;
}

export class RequestCounter {
  #total = 0;
  #tokenRequests = 0;
  #byRoute = new Map<string, number>();

  count(route: string | undefined, isTokenRequest: boolean): void {
    this.#total++;
    if (isTokenRequest) this.#tokenRequests++;
    if (route !== undefined) this.#byRoute.set(route, (this.#byRoute.get(route) ?? 0) + 1);
  }

  snapshot(): RequestCounts {
    return {
      total: this.#total,
      byRoute: Object.fromEntries(this.#byRoute),
      tokenRequests: this.#tokenRequests,
    };
  }

  reset(): void {
    this.#total = 0;
    this.#tokenRequests = 0;
    this.#byRoute.clear();
  }
}
