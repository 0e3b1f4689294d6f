import { ensure, expectJsonBody, expectStatus, expectValid } from '../src/checks/assertions.ts';
import { area, check } from '../src/checks/define.ts';
import { validateResponse } from '../src/contract/index.ts';

area('user', () => {
  check(
    { id: 'USR-ME', title: 'GET /v1/user/me returns the logged-in user as a JSON object', rules: ['USR-01'] },
    async (t) => {
      const res = await t.client.request({
        service: 'main',
        method: 'GET',
        path: 'v1/user/me',
        auth: 'bearer',
      });
      expectStatus(res, 200, 'GET /v1/user/me');
      const body = expectJsonBody(res, 'the user');
      ensure(typeof body === 'object' && body !== null && !Array.isArray(body), 'the user is a JSON object');
      expectValid(validateResponse('getCurrentUser', 200, body), 'the user');
    },
  );
});
