// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC4337} from "solady/accounts/ERC4337.sol";
import {ERC4337Factory} from "solady/accounts/ERC4337Factory.sol";

/// @title The sandbox's smart account (ERC-4337, EntryPoint v0.7)
/// @notice Solady's ERC4337: one owner key, ERC-1271 signatures with ERC-7739 nested EIP-712, so
/// viem's `toSoladySmartAccount` signs for it. Deployed once as the implementation; each account is
/// a minimal ERC-1967 proxy to it made by WalletKitAccountFactory.
contract WalletKitAccount is ERC4337 {
    function _domainNameAndVersion() internal pure override returns (string memory name, string memory version) {
        name = "WalletKitAccount";
        version = "1";
    }
}

/// @title The factory of WalletKitAccount proxies
/// @notice Solady's ERC4337Factory, whose `createAccount(bytes32 ownSalt)` takes the owner from the
/// salt's upper 160 bits, plus the `createAccount(address owner, bytes32 salt)` that viem's
/// `toSoladySmartAccount` calls (the signature of older Solady factories). The address depends on the
/// salt alone, so the salt must start with the owner: nobody can take an owner's address with
/// another key.
contract WalletKitAccountFactory is ERC4337Factory {
    error SaltDoesNotStartWithOwner();

    constructor(address implementation_) payable ERC4337Factory(implementation_) {}

    function createAccount(address owner, bytes32 salt) public payable returns (address) {
        if (owner == address(0) || address(bytes20(salt)) != owner) revert SaltDoesNotStartWithOwner();
        return createAccount(salt);
    }
}
