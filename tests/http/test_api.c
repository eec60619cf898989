/* tests/http/test_api.c: placeholder replaced below */
