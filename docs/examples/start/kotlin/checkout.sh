just jvm::dist linux-x86-64
