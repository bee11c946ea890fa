// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC4337} from "solady/accounts/ERC4337.sol";
import {ERC4337Factory} from "solady/accounts/ERC4337Factory.sol";
import {SignatureCheckerLib} from "solady/utils/SignatureCheckerLib.sol";

/// @title The sandbox's smart account (ERC-4337, EntryPoint v0.7)
/// @notice Solady's ERC4337: one owner key, ERC-1271 signatures with ERC-7739 nested EIP-712, so
/// viem's `toSoladySmartAccount` signs messages and typed data for it. Deployed once as the
/// implementation; each account is a minimal ERC-1967 proxy to it made by WalletKitAccountFactory.
///
/// A user operation is authorised by the owner's ECDSA signature of an EIP-712 digest in this
/// account's own domain (name "WalletKitAccount", version "1", the chain, the account's address):
/// `WalletKitOperation(bytes32 userOpHash)`. Not Solady's default (the EIP-191 `personal_sign` of
/// the userOpHash): a site can ask the owner's wallet to `personal_sign` any 32 bytes, and that
/// signature would have spent the account. No `personal_sign` digest ("\x19Ethereum Signed
/// Message:\n...") is ever an EIP-712 digest ("\x19\x01..."), and the wallet refuses to sign typed
/// data in this domain for a site (widget/rpc/eth_signTypedData_v4.ts).
contract WalletKitAccount is ERC4337 {
    /// @dev keccak256("WalletKitOperation(bytes32 userOpHash)")
    bytes32 public constant OPERATION_TYPEHASH = keccak256("WalletKitOperation(bytes32 userOpHash)");

    function _domainNameAndVersion() internal pure override returns (string memory name, string memory version) {
        name = "WalletKitAccount";
        version = "1";
    }

    /// @dev The EIP-712 digest the owner signs for the operation whose EntryPoint hash is `userOpHash`.
    function operationDigest(bytes32 userOpHash) public view returns (bytes32) {
        return _hashTypedData(keccak256(abi.encode(OPERATION_TYPEHASH, userOpHash)));
    }

    /// @dev 0 when `userOp.signature` is the owner's signature of `operationDigest(userOpHash)`, else 1
    /// (a signature failure the EntryPoint reports as AA24, so a stub signature still lets gas be estimated).
    function _validateSignature(PackedUserOperation calldata userOp, bytes32 userOpHash)
        internal
        virtual
        override
        returns (uint256 validationData)
    {
        bool success = SignatureCheckerLib.isValidSignatureNowCalldata(owner(), operationDigest(userOpHash), userOp.signature);
        validationData = success ? 0 : 1;
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
