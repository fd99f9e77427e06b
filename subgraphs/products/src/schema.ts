import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { DATA_SET, FED2_LINK } from '@gwprof/subgraph-server';

// Large enough that `topProducts(first:, offset:)` in the default stream asks for a different page on
// every request in flight; the first 10 products are the ones the seed's TestQuery sees.
const PRODUCT_COUNT = DATA_SET.products;

interface Product {
  upc: string;
  name: string;
  price: number;
  weight: number;
}

// Prices span both sides of inventory's 1000 threshold so shippingEstimate exercises both branches.
const products: Product[] = Array.from({ length: PRODUCT_COUNT }, (_, i) => ({
  upc: String(i + 1),
  name: `Product ${i + 1} ${['Table', 'Couch', 'Chair', 'Lamp', 'Desk'][i % 5]}`,
  price: 200 + ((i * 373) % 1300),
  weight: 10 + ((i * 7) % 45) * 2, // even, so weight * 0.5 stays an Int
}));
const productsByUpc = new Map(products.map((p) => [p.upc, p]));

const fields = `
  type Query {
    topProducts(first: Int = 5, offset: Int = 0): [Product]
    product(upc: String!): Product
  }
  type Product @key(fields: "upc") {
    upc: String!
    name: String
    price: Int
    weight: Int
  }
`;

const resolvers = {
  Query: {
    topProducts: (_: unknown, { first, offset }: { first: number; offset: number }) => {
      const start = Math.max(0, offset);
      return products.slice(start, start + Math.max(0, first));
    },
    product: (_: unknown, { upc }: { upc: string }) => productsByUpc.get(upc) ?? null,
  },
  Product: {
    __resolveReference: (ref: { upc: string }) => productsByUpc.get(ref.upc) ?? null,
  },
} as never;

/** The form every gateway here composed from the start (Federation 1 style). */
export const schema = buildSubgraphSchema({ typeDefs: parse(fields), resolvers });
/** The same subgraph as Federation 2, for the native routers, which compose only that. */
export const fed2Schema = buildSubgraphSchema({ typeDefs: parse(`${FED2_LINK}${fields}`), resolvers });
