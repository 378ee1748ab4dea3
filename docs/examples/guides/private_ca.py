# The registry's certificate is signed by your own CA: trust that CA's certificate.
#   SAMEKEY_URL=https://registry.internal:8443 SAMEKEY_TOKEN=… SAMEKEY_CA=ca.pem python private_ca.py
import os
import ssl

import httpx
from samekey.registry import Registry

ca = ssl.create_default_context(cafile=os.environ["SAMEKEY_CA"])
with httpx.Client(verify=ca) as http, Registry(os.environ["SAMEKEY_URL"], token=os.environ["SAMEKEY_TOKEN"],
                                               client=http) as registry:
    print("trusted the private CA:", registry.register({"rows": 3}).key)
