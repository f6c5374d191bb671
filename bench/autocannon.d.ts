// The part of autocannon 9's Node API the harness uses (the package ships no types).
declare module 'autocannon' {
  interface RequestSpec {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: { path: string; body?: string; headers?: Record<string, string> }) => {
      path: string;
      body?: string;
      headers?: Record<string, string>;
    };
  }
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
  }
  interface Result {
    requests: Histogram & { total: number };
    latency: Histogram;
    non2xx: number;
    errors: number;
    timeouts: number;
  }
  function autocannon(options: {
    url: string;
    connections: number;
    duration: number;
    requests: RequestSpec[];
  }): Promise<Result>;
  export default autocannon;
}
