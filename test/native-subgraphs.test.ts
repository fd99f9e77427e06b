/**
 * The native subgraphs (`subgraphs-native/`, async-graphql on axum) answer what the Node ones
 * answer, byte for byte: every subgraph request Apollo Gateway and Hive Gateway make for the seed
 * query and for all 2,000 entries of the varied stream (their query shapes as recorded, the
 * representations built from the Node subgraphs' own answers, as a gateway builds them), every
 * entity of the data set, the root fields at their edges, and the HTTP and process contract gwprof
 * relies on. Their four SDLs compose into the same supergraph as the Node subgraphs' Federation 2
 * form. Built through gwprof's cache (quick after the first time); without cargo this fails, with
 * the builder's one-line reason.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNativeSubgraphs } from '../packages/collect/src/services/native-subgraphs.js';
import { repoRoot } from './e2e/cli.js';

const NAMES = ['accounts', 'reviews', 'products', 'inventory'] as const;
type Name = (typeof NAMES)[number];
const VARIED = JSON.parse(readFileSync(path.join(repoRoot, 'fixtures', 'user-reviews.variables.json'), 'utf8')) as {
  userId: string;
  first: number;
  offset: number;
}[];

interface Answer {
  status: number;
  body: string;
}

interface Side {
  /** Where each subgraph listens; the native ones on two ports each, counted apart. */
  ports: Record<Name, number[]>;
  path: string;
}

const children: ChildProcess[] = [];
let binary = '';
const node: Side = { ports: {} as Record<Name, number[]>, path: '/fed2/graphql' };
const native: Side = { ports: {} as Record<Name, number[]>, path: '/graphql' };

beforeAll(async () => {
  binary = await buildNativeSubgraphs({ onProgress: (line, final) => final && process.stderr.write(`${line}\n`) });
  for (const name of NAMES) {
    node.ports[name] = [await freePort()];
    native.ports[name] = [await freePort(), await freePort()];
    children.push(start(process.execPath, [path.join(repoRoot, 'subgraphs', name, 'dist', 'main.js')], node.ports[name]));
    children.push(start(binary, [name], native.ports[name]));
  }
  await Promise.all([...NAMES.flatMap((n) => [...node.ports[n], ...native.ports[n]])].map((port) => untilHealthy(port)));
}, 30 * 60_000);

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

describe('the native subgraphs', () => {
  it("answer every subgraph request of Apollo Gateway's and Hive Gateway's plans of the seed query and the varied stream as the Node ones do", async () => {
    const comparison = new Comparison();
    await seedQueryPlans(comparison);
    await inBatches(VARIED, 8, (entry) => variedStreamPlans(comparison, entry));
    comparison.expectSame(9 + 10 + VARIED.length * 14);
  }, 300_000);

  it('resolve every entity of the data set, and unknown keys, as the Node ones do', async () => {
    const comparison = new Comparison();
    const users = range(1, 2000).map((n) => ({ __typename: 'User', id: String(n) }));
    const unknownUsers = ['0', '2001', '01', 'abc', ''].map((id) => ({ __typename: 'User', id }));
    const products = range(1, 2000).map((n) => ({ __typename: 'Product', upc: String(n) }));
    const unknownProducts = ['0', '2001', '01', 'x'].map((upc) => ({ __typename: 'Product', upc }));
    const reviews = range(1, 6001).map((n) => ({ __typename: 'Review', id: String(n) }));
    const lookups: [Name, string, object[]][] = [
      ['accounts', '...on User{__typename id name username birthDate}', [...users, ...unknownUsers]],
      ['reviews', '...on User{__typename id username reviews{id body product{upc}}}', [...users, ...unknownUsers]],
      ['reviews', '...on Product{__typename upc reviews{id body author{__typename id username}}}', [...products, ...unknownProducts]],
      ['reviews', '__typename ...on Review{id body author{id username} product{upc}}', reviews],
      ['reviews', '__typename ...on User{id} ...on Product{upc} ...on Review{id}', [users[0]!, products[0]!, reviews[0]!, reviews[5999]!]],
      ['products', '...on Product{__typename upc name price weight}', [...products, ...unknownProducts]],
    ];
    for (const [name, selection, representations] of lookups) await entitiesInPages(comparison, name, selection, representations);
    // Inventory: with the price and weight the gateway passes (both branches of shippingEstimate), without, and odd ones.
    const priced = await productsWithPriceAndWeight(products);
    const odd = [
      { __typename: 'Product', upc: '5', price: null, weight: 12 },
      { __typename: 'Product', upc: '6', price: 1500, weight: null },
      { __typename: 'Product', upc: '7', price: 5 },
      ...['0x10', ' 8 ', '', '-4', '1e3', 'abc', '2.5'].map((upc) => ({ __typename: 'Product', upc })),
    ];
    const inventory = '...on Product{__typename upc inStock shippingEstimate price weight}';
    await entitiesInPages(comparison, 'inventory', inventory, [...priced, ...products, ...odd]);
    comparison.expectSame(
      lookups.reduce((sum, [, , r]) => sum + Math.ceil(r.length / 100), 0) + Math.ceil((priced.length + products.length + odd.length) / 100),
    );
  }, 120_000);

  it('answer the root fields, at their edges too, as the Node ones do', async () => {
    const comparison = new Comparison();
    const user = '{__typename id name username birthDate}';
    const product = '{__typename upc name price weight}';
    const requests: [Name, object][] = [
      ['accounts', { query: `{me${user}}` }],
      ...['1', '10', '2000', '0', '2001', '01', 'x'].map((id): [Name, object] => [
        'accounts',
        { query: `query($id:ID!){user(id:$id)${user}}`, variables: { id } },
      ]),
      ['accounts', { query: `{user(id: 7)${user}}` }],
      ['accounts', { query: `{users${user}}` }],
      ...[0, -1, 3, 2500].map((first): [Name, object] => ['accounts', { query: `{users(first: ${first})${user}}` }]),
      ['accounts', { query: `{users(first: null){id}}` }],
      ['products', { query: `{topProducts${product}}` }],
      ...[
        [3, 0],
        [10, 1995],
        [5, -3],
        [-1, 4],
        [4, 5000],
      ].map(([first, offset]): [Name, object] => ['products', { query: `{topProducts(first: ${first}, offset: ${offset})${product}}` }]),
      ['products', { query: '{topProducts(first: null){upc} second: topProducts(offset: null){upc}}' }],
      ...['1', '2000', '0', '2001', 'x'].map((upc): [Name, object] => [
        'products',
        { query: `query($upc:String!){product(upc:$upc)${product}}`, variables: { upc } },
      ]),
    ];
    for (const [name, body] of requests) await comparison.same(name, body);
    comparison.expectSame(requests.length);
  });

  it('answer the shapes of GraphQL a planner may send as graphql-js does: aliases, fragments, directives, defaults, operation names', async () => {
    const comparison = new Comparison();
    const requests: [Name, object][] = [
      ['accounts', { query: '{ b: user(id: "2") { name id } a: user(id: "1") { id ...F } __typename } fragment F on User { username name }' }],
      ['accounts', { query: '{ user(id: "3") { id name } user(id: "3") { birthDate id } }' }],
      ['accounts', { query: 'query($first:Int){users(first:$first){id}}' }],
      ['accounts', { query: 'query($first:Int = 2){users(first:$first){id}}', variables: {} }],
      ['accounts', { query: 'query($skip:Boolean!){me{id name @skip(if:$skip) username @include(if:$skip)}}', variables: { skip: true } }],
      ['accounts', { query: 'query A{me{id}} query B{me{name}}', operationName: 'B' }],
      ['reviews', { query: '{_service{sdl}}' }],
      [
        'inventory',
        {
          query:
            'query($a:[_Any!]!$b:[_Any!]!){_v0__entities:_entities(representations:$a){__typename ...on Product{inStock}} _v1__entities:_entities(representations:$b){__typename ...on Product{shippingEstimate}}}',
          variables: { a: [{ __typename: 'Product', upc: '4' }], b: [{ __typename: 'Product', upc: '4', price: 1319, weight: 52 }] },
        },
      ],
      [
        'reviews',
        {
          query:
            'query($r:[_Any!]!){_entities(representations:$r){...P ...on User{reviews{id}}}} fragment P on Product{reviews{author{__typename __typename id username}}}',
          variables: { r: [{ __typename: 'Product', upc: '1' }] },
        },
      ],
    ];
    // `_service { sdl }` differs between the two stacks (each prints its own SDL): only its status is compared.
    for (const [name, body] of requests) await comparison.same(name, body, { bodies: !JSON.stringify(body).includes('_service') });
    comparison.expectSame(requests.length);
  });

  it('serve the same schema on /fed2/graphql, count GraphQL requests per port, and answer /health, stats and mistakes as the Node ones do', async () => {
    const before = { node: await countsOf(node), native: await countsOf(native) };
    const body = { query: '{users(first: 2){id name}}' };
    const onFed2 = await post(native.ports.accounts[0]!, body, '/fed2/graphql');
    expect(onFed2).toEqual(await post(native.ports.accounts[0]!, body, '/graphql'));
    expect(onFed2.body).toBe('{"data":{"users":[{"id":"1","name":"User Number 1"},{"id":"2","name":"User Number 2"}]}}');
    await Promise.all([post(node.ports.accounts[0]!, body, '/fed2/graphql'), post(node.ports.accounts[0]!, body, '/graphql')]);
    const second = native.ports.accounts[1]!;
    await post(second, body);
    expect(await stats(second)).toEqual({ name: 'accounts', requests: 1 });
    // Mistakes a client can make: same status and body, except for the messages of invalid documents, which are each stack's own.
    for (const [raw, status] of [
      ['not json', 400],
      ['{"variables":{}}', 400],
      ['null', 500],
    ] as const) {
      const [n, r] = await Promise.all([postRaw(node.ports.products[0]!, raw, '/graphql'), postRaw(native.ports.products[0]!, raw, '/graphql')]);
      expect(r, raw).toEqual(n);
      expect(r.status).toBe(status);
    }
    const invalid = { query: '{ topProducts { nope } }' };
    const [n, r] = await Promise.all([post(node.ports.products[0]!, invalid), post(native.ports.products[0]!, invalid)]);
    expect([r.status, n.status]).toEqual([400, 400]);
    expect(JSON.parse(r.body)).toMatchObject({ errors: [{ message: expect.stringContaining('nope') }] });
    for (const port of [node.ports.products[0]!, native.ports.products[0]!]) {
      const health = await fetch(`http://127.0.0.1:${port}/health`);
      expect([health.status, await health.text()]).toEqual([200, '{"ok":true}']);
      const wrong = await fetch(`http://127.0.0.1:${port}/graphql?x=1`);
      expect([wrong.status, await wrong.text()]).toEqual([404, '{"errors":[{"message":"POST /graphql or /fed2/graphql only (got GET /graphql?x=1)"}]}']);
    }
    // Each side counted the GraphQL requests sent to it here (2 to accounts, 4 to products, none to the others), not the rest.
    for (const [label, side] of [
      ['node', node],
      ['native', native],
    ] as const) {
      const after = await countsOf(side);
      expect(after.map((s) => s.name)).toEqual([...NAMES]);
      expect(
        after.map((s, i) => s.requests - before[label][i]!.requests),
        label,
      ).toEqual([2, 0, 4, 0]);
    }
  });

  it('compose into the same supergraph as the Node subgraphs’ Federation 2 form', async () => {
    const fromNode = await supergraphOf(node);
    const fromNative = await supergraphOf(native);
    expect(fromNative).toContain('@join__field(graph: INVENTORY, requires: "price weight")');
    expect(fromNative).toContain('@join__field(graph: REVIEWS, provides: "username")');
    expect(fromNative).toBe(fromNode);
  });

  it('pad GraphQL answers with leading whitespace on the ports SUBGRAPH_PADDING_BYTES names only, as the Node ones do', async () => {
    const [padded, plain] = [await freePort(), await freePort()];
    const child = start(binary, ['products'], [plain, padded], { SUBGRAPH_PADDING_BYTES: `${padded}=4096` });
    children.push(child);
    await Promise.all([untilHealthy(plain), untilHealthy(padded)]);
    const query = { query: '{product(upc:"1"){upc}}' };
    const [a, b] = [await post(plain, query), await post(padded, query)];
    expect(b.body.length).toBe(a.body.length + 4096);
    expect(b.body.trimStart()).toBe(a.body);
    child.kill('SIGTERM');
  });

  it('keep the process contract: the delay, a taken port, SIGTERM, and no life after the parent', async () => {
    const [slowPort, takenPort] = [await freePort(), native.ports.accounts[0]!];
    const slow = start(binary, ['products'], [slowPort], { SUBGRAPH_DELAY_MS: '300' });
    children.push(slow);
    await untilHealthy(slowPort);
    const started = performance.now();
    expect((await post(slowPort, { query: '{product(upc:"1"){upc}}' })).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    const stopped = new Promise((resolve) => slow.once('exit', (code) => resolve(code)));
    slow.kill('SIGTERM');
    expect(await stopped).toBe(0);

    const taken = spawn(binary, ['accounts'], { env: { ...process.env, PORT: String(takenPort) }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    taken.stderr.on('data', (chunk) => (stderr += chunk));
    expect(await new Promise((resolve) => taken.once('exit', resolve))).toBe(1);
    expect(stderr).toContain(`subgraph accounts failed to start: port ${takenPort} is already in use`);

    // A parent that dies by SIGKILL takes the subgraph with it.
    const orphanPort = await freePort();
    const launcher = `require('node:child_process').spawn(${JSON.stringify(binary)}, ['reviews'], { stdio: 'ignore', env: { ...process.env, PORT: '${orphanPort}' } }); setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['-e', launcher], { stdio: 'ignore' });
    children.push(parent);
    await untilHealthy(orphanPort);
    parent.kill('SIGKILL');
    expect(await untilClosed(orphanPort, 5000)).toBe(true);
  });
});

/** Sends each request to both sides and keeps every difference of status or body. */
class Comparison {
  compared = 0;
  readonly differences: string[] = [];
  /** Requests the Node side did not answer cleanly: comparing two failures would prove nothing. */
  readonly unclean: string[] = [];

  async same(name: Name, body: object, options: { bodies?: boolean } = {}): Promise<unknown> {
    const [fromNode, fromNative] = await Promise.all([post(node.ports[name][0]!, body, node.path), post(native.ports[name][0]!, body, native.path)]);
    this.compared += 1;
    const request = `${name} ${JSON.stringify(body).slice(0, 300)}`;
    if (fromNode.status !== fromNative.status || (options.bodies !== false && fromNode.body !== fromNative.body)) {
      this.differences.push(
        `${request}\n  node   ${fromNode.status} ${fromNode.body.slice(0, 400)}\n  native ${fromNative.status} ${fromNative.body.slice(0, 400)}`,
      );
    }
    if (fromNode.status !== 200 || fromNode.body.startsWith('{"errors"')) this.unclean.push(`${request}: ${fromNode.body.slice(0, 200)}`);
    return (JSON.parse(fromNode.body) as { data: unknown }).data;
  }

  expectSame(expected: number): void {
    expect(this.differences.slice(0, 3)).toEqual([]);
    expect(this.unclean.slice(0, 3)).toEqual([]);
    expect(this.compared).toBe(expected);
  }
}

type Entity = Record<string, unknown> | null;
type ProductData = { upc: string; name: string; price: number; weight: number };

const entities = (selection: string, operation = '') =>
  `query${operation}($representations:[_Any!]!){_entities(representations:$representations){${selection}}}`;
const productRef = (upc: string) => ({ __typename: 'Product', upc });
const distinct = (upcs: string[]) => [...new Set(upcs)];

/** Apollo Gateway's 9 requests and Hive Gateway's 10 for the seed's TestQuery, in dependency order. */
async function seedQueryPlans(c: Comparison): Promise<void> {
  for (const gateway of ['apollo', 'hive'] as const) {
    const apollo = gateway === 'apollo';
    const op = (subgraph: string, n: number) => (apollo ? { operationName: `TestQuery__${subgraph}__${n}` } : { operationName: 'TestQuery' });
    const name = (subgraph: string, n: number) => (apollo ? ` TestQuery__${subgraph}__${n}` : ' TestQuery');
    const users = (await c.same(
      'accounts',
      apollo
        ? { query: 'query TestQuery__accounts__0{users{__typename id username name}}', variables: {}, ...op('accounts', 0) }
        : { query: 'query TestQuery($first:Int){users(first:$first){__typename id username name}}', ...op('', 0) },
    )) as { users: { id: string }[] };
    const userReviews = (await c.same('reviews', {
      query: entities(
        apollo ? '...on User{reviews{id body product{__typename upc}}}' : '__typename ...on User{reviews{__typename id body product{__typename upc}}id}',
        name('reviews', 1),
      ),
      variables: { representations: users.users.map((u) => ({ __typename: 'User', id: u.id })) },
      ...op('reviews', 1),
    })) as { _entities: { reviews: { product: { upc: string } }[] }[] };
    const reviewed = distinct(userReviews._entities.flatMap((u) => u.reviews.map((r) => r.product.upc)));
    const details = (await c.same('products', {
      query: entities(apollo ? '...on Product{name price weight}' : '__typename ...on Product{name price weight}', name('products', 2)),
      variables: { representations: reviewed.map(productRef) },
      ...op('products', 2),
    })) as { _entities: ProductData[] };
    const priced = reviewed.map((upc, i) => ({ __typename: 'Product', price: details._entities[i]!.price, weight: details._entities[i]!.weight, upc }));
    const top = (await c.same(
      'products',
      apollo
        ? { query: 'query TestQuery__products__5{topProducts{__typename upc price weight name}}', variables: {}, ...op('products', 5) }
        : { query: 'query TestQuery($first:Int$offset:Int){topProducts(first:$first offset:$offset){__typename upc name price weight}}', ...op('', 0) },
    )) as { topProducts: ProductData[] };
    const topPriced = top.topProducts.map((p) => ({ __typename: 'Product', upc: p.upc, price: p.price, weight: p.weight }));
    const topReviews = (await c.same('reviews', {
      query: entities(
        apollo
          ? '...on Product{reviews{id body author{__typename id username}}}'
          : '__typename ...on Product{reviews{__typename id body author{username __typename __typename id}}upc}',
        name('reviews', 6),
      ),
      variables: { representations: top.topProducts.map((p) => productRef(p.upc)) },
      ...op('reviews', 6),
    })) as { _entities: { reviews: { author: { id: string } }[] }[] };
    const authors = topReviews._entities.flatMap((p) => p.reviews.map((r) => ({ __typename: 'User', id: r.author.id })));
    await c.same('accounts', {
      query: entities(`${apollo ? '' : '__typename '}...on User{name}`, name('accounts', 7)),
      variables: { representations: authors },
      ...op('accounts', 7),
    });
    const on = (fields: string) => `${apollo ? '' : '__typename '}...on Product{${fields}}`;
    await c.same('inventory', {
      query: entities(on('inStock shippingEstimate'), name('inventory', 8)),
      variables: { representations: topPriced },
      ...op('inventory', 8),
    });
    await c.same('inventory', {
      query: entities(on('inStock'), name('inventory', 4)),
      variables: { representations: reviewed.map(productRef) },
      ...op('inventory', 4),
    });
    await c.same('inventory', { query: entities(on('shippingEstimate'), name('inventory', 3)), variables: { representations: priced }, ...op('inventory', 3) });
    if (!apollo) {
      await c.same('inventory', {
        query:
          'query TestQuery($_v0_representations:[_Any!]!$_v1_representations:[_Any!]!){_v0__entities:_entities(representations:$_v0_representations){__typename ...on Product{inStock}}_v1__entities:_entities(representations:$_v1_representations){__typename ...on Product{shippingEstimate}}}',
        variables: { _v0_representations: reviewed.map(productRef), _v1_representations: priced },
        operationName: 'TestQuery',
      });
    }
  }
}

/** Apollo Gateway's 7 requests and Hive Gateway's 7 for one entry of the varied stream (UserReviews). */
async function variedStreamPlans(c: Comparison, entry: { userId: string; first: number; offset: number }): Promise<void> {
  for (const apollo of [true, false]) {
    const op = (subgraph: string, n: number) => (apollo ? `UserReviews__${subgraph}__${n}` : 'UserReviews');
    const on = (type: string, fields: string) => `${apollo ? '' : '__typename '}...on ${type}{${fields}}`;
    const request = (subgraph: Name, n: number, selection: string, representations: object[]) =>
      c.same(subgraph, { query: entities(selection, ` ${op(subgraph, n)}`), variables: { representations }, operationName: op(subgraph, n) });
    const account = (await c.same('accounts', {
      query: `query ${op('accounts', 0)}($userId:ID!){user(id:$userId){__typename id username name}}`,
      variables: { userId: entry.userId },
      operationName: op('accounts', 0),
    })) as { user: { id: string } };
    const reviews = (await request(
      'reviews',
      1,
      apollo ? on('User', 'reviews{id body product{__typename upc}}') : on('User', 'reviews{__typename id body product{__typename upc}}id'),
      [{ __typename: 'User', id: account.user.id }],
    )) as { _entities: { reviews: { product: { upc: string } }[] }[] };
    const reviewed = distinct(reviews._entities[0]!.reviews.map((r) => r.product.upc));
    const details = (await request('products', 3, on('Product', 'name price weight'), reviewed.map(productRef))) as { _entities: ProductData[] };
    await request('inventory', 2, on('Product', 'inStock'), reviewed.map(productRef));
    const priced = reviewed.map((upc, i) => ({ __typename: 'Product', price: details._entities[i]!.price, weight: details._entities[i]!.weight, upc }));
    await request('inventory', 4, on('Product', 'shippingEstimate'), priced);
    const top = (await c.same('products', {
      query: `query ${op('products', 5)}($first:Int!$offset:Int!){topProducts(first:$first offset:$offset){__typename upc name price}}`,
      variables: { first: entry.first, offset: entry.offset },
      operationName: op('products', 5),
    })) as { topProducts: { upc: string }[] };
    await request(
      'reviews',
      6,
      apollo ? on('Product', 'reviews{id author{id username}}') : on('Product', 'reviews{__typename id author{username __typename __typename id}}upc'),
      top.topProducts.map((p) => productRef(p.upc)),
    );
  }
}

/** `_entities` over many representations, 100 a request. */
async function entitiesInPages(c: Comparison, name: Name, selection: string, representations: object[]): Promise<void> {
  const pages = range(0, Math.ceil(representations.length / 100)).map((i) => representations.slice(i * 100, i * 100 + 100));
  await inBatches(pages, 4, async (page) => {
    await c.same(name, { query: entities(selection), variables: { representations: page } });
  });
}

/** Every product's representation with its price and weight, as products (Node) answers them. */
async function productsWithPriceAndWeight(products: { upc: string }[]): Promise<object[]> {
  const answer = await post(
    node.ports.products[0]!,
    { query: entities('...on Product{upc price weight}'), variables: { representations: products } },
    node.path,
  );
  const found = (JSON.parse(answer.body) as { data: { _entities: Entity[] } }).data._entities;
  expect(found).toHaveLength(products.length);
  return found.map((p) => ({ __typename: 'Product', ...p }));
}

async function supergraphOf(side: Side): Promise<string> {
  const gateway = createRequire(path.join(repoRoot, 'gateways', 'apollo', 'package.json')).resolve('@apollo/gateway');
  const requireFromGateway = createRequire(gateway);
  const { composeServices } = requireFromGateway('@apollo/composition') as {
    composeServices(services: { name: string; typeDefs: unknown; url: string }[]): { errors?: { message: string }[]; supergraphSdl?: string };
  };
  const { parse } = requireFromGateway('graphql') as { parse(source: string): unknown };
  const services = [];
  for (const name of NAMES) {
    const answer = await post(side.ports[name][0]!, { query: '{_service{sdl}}' }, side.path);
    const sdl = (JSON.parse(answer.body) as { data: { _service: { sdl: string } } }).data._service.sdl;
    services.push({ name, typeDefs: parse(sdl), url: `http://subgraphs/${name}` });
  }
  const composed = composeServices(services);
  expect(composed.errors?.map((e) => e.message)).toBeUndefined();
  return composed.supergraphSdl!;
}

function start(command: string, args: string[], ports: number[], env: Record<string, string> = {}): ChildProcess {
  return spawn(command, args, { env: { ...process.env, NODE_OPTIONS: '', PORT: ports.join(','), ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
}

async function post(port: number, body: object, urlPath = '/graphql'): Promise<Answer> {
  return postRaw(port, JSON.stringify(body), urlPath);
}

async function postRaw(port: number, body: string, urlPath: string): Promise<Answer> {
  const response = await fetch(`http://127.0.0.1:${port}${urlPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: response.status, body: await response.text() };
}

async function stats(port: number): Promise<{ name: string; requests: number }> {
  return (await (await fetch(`http://127.0.0.1:${port}/__gwprof/stats`)).json()) as { name: string; requests: number };
}

function countsOf(side: Side): Promise<{ name: string; requests: number }[]> {
  return Promise.all(NAMES.map((name) => stats(side.ports[name][0]!)));
}

async function untilHealthy(port: number): Promise<void> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(100)) {
    if (
      await fetch(`http://127.0.0.1:${port}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
  }
  throw new Error(`nothing healthy on port ${port} after 30 s`);
}

async function untilClosed(port: number, withinMs: number): Promise<boolean> {
  for (const deadline = Date.now() + withinMs; Date.now() < deadline; await sleep(100)) {
    if (
      !(await fetch(`http://127.0.0.1:${port}/health`).then(
        () => true,
        () => false,
      ))
    )
      return true;
  }
  return false;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function inBatches<T>(items: readonly T[], size: number, each: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(each));
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
