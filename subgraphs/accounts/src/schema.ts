import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { DATA_SET, FED2_LINK } from '@gwprof/subgraph-server';

// Large enough that the default request stream (one user per request, 2,000 variable sets) never
// has two requests for the same user in flight below c=2000; `users` stays a first page of 10 so
// the seed's TestQuery (which lists `users`) keeps its size and its golden response.
const USER_COUNT = DATA_SET.users;
const USERS_PAGE = DATA_SET.seedUsers;

interface User {
  id: string;
  name: string;
  username: string;
  birthDate: string;
}

const users: User[] = Array.from({ length: USER_COUNT }, (_, i) => ({
  id: String(i + 1),
  name: `User Number ${i + 1}`,
  username: `@user${i + 1}`,
  birthDate: `19${70 + (i % 30)}-0${(i % 9) + 1}-1${i % 10}`,
}));
const usersById = new Map(users.map((u) => [u.id, u]));

/** The type as both forms write it; reviews provides `username` too, which Federation 2 must be told is shared. */
const fields = (usernameDirective: string) => `
  type Query {
    me: User
    user(id: ID!): User
    users(first: Int = ${USERS_PAGE}): [User]
  }
  type User @key(fields: "id") {
    id: ID!
    name: String
    username: String${usernameDirective}
    birthDate: String
  }
`;

const resolvers = {
  Query: {
    me: () => users[0],
    user: (_: unknown, { id }: { id: string }) => usersById.get(id) ?? null,
    users: (_: unknown, { first }: { first: number }) => users.slice(0, Math.max(0, first)),
  },
  User: {
    __resolveReference: (ref: { id: string }) => usersById.get(ref.id) ?? null,
  },
} as never;

/** The form every gateway here composed from the start (Federation 1 style). */
export const schema = buildSubgraphSchema({ typeDefs: parse(fields('')), resolvers });
/** The same subgraph as Federation 2, for the native routers, which compose only that. */
export const fed2Schema = buildSubgraphSchema({ typeDefs: parse(`${FED2_LINK}${fields(' @shareable')}`), resolvers });
