/** `POST /users`: a new client (with the sandbox extras that let every lookup kind find it). */
import { Hono } from 'hono';
import { newUserSchema } from '../schemas.js';
import { jsonBody, type ApiContext, type ApiEnv } from './request.js';

export function userRoutes({ state, bearer }: ApiContext): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  routes.post('/', bearer, (c) => {
    const user = state.store.addUser(jsonBody(c, newUserSchema));
    return c.json({ code: 201, response: { user_id: user.user_id } }, 201);
  });
  return routes;
}
